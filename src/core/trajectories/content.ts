// Message content as providers take it: a string, null, or a list of parts. Text parts are read; every
// other part becomes a short marker and is counted in the file's notes, so nothing is lost silently.
import { fail } from './errors';
import { isObject, type Json } from './json';
import { plural, type Notes } from './notes';

const TEXT_KEYS = ['text', 'refusal', 'input_text', 'output_text'];
const MEDIA = new Set(['image', 'image_url', 'input_image', 'input_audio', 'audio', 'file', 'input_file', 'document']);

/** The text of one content part, or undefined when it carries none. */
function partText(p: Json): string | undefined {
  if (typeof p === 'string') return p;
  if (!isObject(p)) return undefined;
  for (const k of TEXT_KEYS) if (typeof p[k] === 'string') return p[k];
  return undefined;
}

/** Parts inside parts (a tool result's content) nest once or twice in real logs. */
const MAX_PART_DEPTH = 64;

/** Joins content parts into text. Media parts become `[image]`-style markers, noted once per file. */
export function contentText(v: unknown, where: string, notes: Notes, depth = 0): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) fail(`${where}: content is neither text nor a list of parts`);
  if (depth > MAX_PART_DEPTH)
    fail(`${where}: content parts nested more than ${MAX_PART_DEPTH} levels deep`, 'content nested too deeply');
  const out: string[] = [];
  for (const part of v as Json[]) {
    const text = partText(part);
    if (text !== undefined) {
      out.push(text);
      continue;
    }
    const type = isObject(part) && typeof part.type === 'string' ? part.type : 'untyped';
    if (isObject(part) && (typeof part.content === 'string' || Array.isArray(part.content))) {
      out.push(contentText(part.content, where, notes, depth + 1));
      continue;
    }
    if (MEDIA.has(type)) {
      out.push(`[${type}]`);
      notes.add(
        `media:${type}`,
        (n) => `${plural(n, `${type} part`)} counted as a one-word marker (replay counts text only)`,
      );
    } else {
      notes.add(`part:${type}`, (n) => `${plural(n, `content part`)} of unknown type "${type}" dropped`);
    }
  }
  return out.join('');
}
