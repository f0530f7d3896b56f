// Reads a log file into one of three shapes, streaming: a JSON document (parsed incrementally, copies
// pruned element by element), JSON lines (one record per line; a torn or invalid line is skipped and
// reported, the rest kept), or plain text (Markdown logs such as Aider's chat history).
import { JSONParser } from '@streamparser/json';
import { fail, FormatError } from '../errors';
import { JsonDepthMeter, MAX_JSON_DEPTH, textNestedDeeperThan } from '../../json-depth';
import type { Json } from '../json';
import { openText } from './open';
import { createPruner, pruneRecord } from './prune';

export interface BadLine {
  /** 1-based line number. */
  line: number;
  /** True for the file's last line (a log still being written ends with a torn line). */
  last: boolean;
  /** It nests more than `MAX_JSON_DEPTH` levels deep: skipped before parsing (seconds per megabyte). */
  deep?: true;
}

const SEVERAL = 'several JSON values one after another';

export type Input =
  | { kind: 'document'; value: Json }
  | { kind: 'lines'; records: Json[]; lineNumbers: number[]; bad: BadLine[] }
  | { kind: 'text'; text: string };

/** Position of the first error in the parser's message, never the message itself (it quotes the file). */
function jsonError(e: unknown): FormatError {
  const message = e instanceof Error ? e.message : '';
  const at = /absolute position "(\d+)"/.exec(message)?.[1];
  if (/ended in (mid-parsing|the middle)/.test(message))
    return new FormatError(
      'not valid JSON: the document ends early (cut off or still being written?)',
      'not valid JSON',
    );
  return new FormatError(`not valid JSON${at !== undefined ? ` (error near character ${at})` : ''}`, 'not valid JSON');
}

async function readDocument(first: string, rest: AsyncGenerator<string>): Promise<Input> {
  // `separator: ''` lets whitespace follow the document; a second value is reported below.
  const parser = new JSONParser({
    paths: ['$.*', '$.*.*', '$.attempts.*.trajectory.*', '$'],
    keepStack: true,
    separator: '',
    stringBufferSize: 1 << 16,
  });
  const prune = createPruner();
  let root: Json | undefined;
  let roots = 0;
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) {
      root = value as Json;
      roots++;
    } else prune(value as Json);
  };
  // The parser keeps a frame per level and spends seconds on megabytes of `[[[[`: refused first.
  const meter = new JsonDepthMeter();
  const write = (chunk: string): void => {
    if (meter.feed(chunk))
      fail(`nested too deeply to read (more than ${MAX_JSON_DEPTH} levels)`, 'nested too deeply to read');
    parser.write(chunk);
  };
  try {
    write(first);
    for await (const chunk of rest) write(chunk);
    parser.end();
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw jsonError(e);
  }
  if (root === undefined) fail('not valid JSON (no value)', 'not valid JSON');
  if (roots > 1) fail(`${SEVERAL}, not one document or one per line`, 'not valid JSON');
  return { kind: 'document', value: root };
}

async function readLines(head: string, rest: AsyncGenerator<string>): Promise<Input> {
  const records: Json[] = [];
  const lineNumbers: number[] = [];
  const bad: BadLine[] = [];
  const prune = createPruner();
  let line = 0;
  const take = (text: string, last: boolean) => {
    line++;
    const t = text.trim();
    if (t === '') return;
    if (textNestedDeeperThan(t)) return void bad.push({ line, last, deep: true });
    try {
      const v = JSON.parse(t) as Json;
      pruneRecord(v, prune);
      records.push(v);
      lineNumbers.push(line);
    } catch {
      bad.push({ line, last });
    }
  };
  // Parts of the line being read: a long line is joined once, not searched again at every chunk.
  let parts: string[] = [];
  const feed = (chunk: string) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf('\n', start)) !== -1) {
      parts.push(chunk.slice(start, nl));
      take(parts.join(''), false);
      parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  };
  feed(head);
  for await (const chunk of rest) feed(chunk);
  // An unterminated last line is what a writer still appending (or one that crashed) leaves behind.
  const tail = parts.join('');
  if (tail.trim() !== '') take(tail, true);
  if (records.length === 0) fail('no line is valid JSON', 'not valid JSON');
  if (bad.length > records.length)
    fail(`not JSON lines: ${bad.length} of ${bad.length + records.length} lines are not valid JSON`, 'not valid JSON');
  return { kind: 'lines', records, lineNumbers, bad };
}

/** A first line longer than this is taken for a one-line document and streamed, not parsed whole. */
const FIRST_LINE_PROBE = 8 << 20;

async function readOnce(file: string, mode?: 'lines'): Promise<Input> {
  const source = await openText(file);
  const chunks = source.chunks();
  try {
    // Look at the first non-blank character: JSON starts with { or [, anything else is text.
    let head = '';
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      head += next.value;
      if (head.trimStart() !== '') break;
    }
    const start = head.trimStart()[0];
    if (start === undefined) fail('the file is blank', 'empty file');
    if (mode === 'lines') return await readLines(head, chunks);
    if (start === '[') return await readDocument(head, chunks);
    if (start !== '{') {
      const parts = [head];
      for await (const chunk of chunks) parts.push(chunk);
      return { kind: 'text', text: parts.join('') };
    }
    // `{`: one document, or one record per line. A first line that is a whole JSON value means lines.
    // Only the new chunk is searched for the line end, and a very long first line is not parsed whole.
    const parts = [head];
    let length = head.length;
    let nl = head.indexOf('\n');
    while (nl === -1 && length <= FIRST_LINE_PROBE) {
      const next = await chunks.next();
      if (next.done) break;
      const at = next.value.indexOf('\n');
      if (at !== -1) nl = length + at;
      parts.push(next.value);
      length += next.value.length;
    }
    head = parts.join('');
    let wholeLine = false;
    // A first line nested too deeply to parse is one bad line of JSON lines (a document beginning so
    // would be refused anyway).
    if (nl !== -1 && nl <= FIRST_LINE_PROBE)
      try {
        if (!textNestedDeeperThan(head.slice(0, nl))) JSON.parse(head.slice(0, nl));
        wholeLine = true;
      } catch {
        /* a document spread over lines */
      }
    if (!wholeLine) return await readDocument(head, chunks);
    const lines = await readLines(head, chunks);
    // One record on one line is a compact document, however it ends.
    if (lines.kind === 'lines' && lines.records.length === 1 && lines.bad.length === 0)
      return { kind: 'document', value: lines.records[0]! };
    return lines;
  } finally {
    await chunks.return(undefined);
    await source.close().catch(() => undefined);
  }
}

/** Reads `file`. Throws a FormatError with the reason when it cannot be read as a log. */
export async function readSource(file: string): Promise<Input> {
  try {
    return await readOnce(file);
  } catch (e) {
    // JSON lines whose first line was too long to probe: read them again, as lines.
    if (e instanceof FormatError && e.message.startsWith(SEVERAL))
      return await readOnce(file, 'lines').catch(() => Promise.reject(e));
    throw e;
  }
}
