// Message content as providers take it: a string, null, or a list of parts. Text parts are read; an
// Anthropic image of known size is counted as Anthropic bills it (where the caller can carry the count);
// every other part becomes a short marker and is counted in the file's notes, so nothing is lost silently.
import { fail } from './errors';
import { anthropicImageTokens } from './image-tokens';
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

/** Tokens of the images counted beside a message's text (see Message.mediaTokens). */
export interface MediaTally {
  tokens: number;
}

/** Anthropic's image block with its bytes inline: its tokens, or undefined when they are unknown. */
function anthropicImage(part: Json): number | undefined {
  if (!isObject(part) || part.type !== 'image' || !isObject(part.source)) return undefined;
  const { type, data } = part.source;
  return type === 'base64' && typeof data === 'string' ? anthropicImageTokens(data) : undefined;
}

/**
 * Joins content parts into text. With a tally, Anthropic images of known size add their tokens to it;
 * other media parts become `[image]`-style markers, noted once per file (their tokens are not counted).
 */
export function contentText(v: unknown, where: string, notes: Notes, tally?: MediaTally, depth = 0): string {
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
      out.push(contentText(part.content, where, notes, tally, depth + 1));
      continue;
    }
    const imageTokens = tally ? anthropicImage(part) : undefined;
    if (imageTokens !== undefined) {
      tally!.tokens += imageTokens;
      notes.add(
        'image-counted',
        (n) => `${plural(n, 'image')} counted as Anthropic bills ${n === 1 ? 'it' : 'them'} (width × height / 750)`,
      );
    } else if (MEDIA.has(type)) {
      out.push(`[${type}]`);
      notes.add(
        `media:${type}`,
        (n) =>
          `${plural(n, `${type} part`)} counted as a one-word marker (its tokens are not known: totals are lower bounds)`,
      );
    } else {
      notes.add(`part:${type}`, (n) => `${plural(n, `content part`)} of unknown type "${type}" dropped`);
    }
  }
  return out.join('');
}
