// Readers that tolerate what crashes and concurrent writers leave: a torn last line, damaged lines.
// (Writing is the store writer's job: whole-line appends on O_APPEND descriptors, atomic replacement.)
import { MAX_JSON_DEPTH, parseShallowJson } from '../json-depth';
import { readTextFile, type ReadOptions } from '../read-text';

/** What a tolerant JSONL reader found. */
export interface JsonlReadResult<T> {
  records: T[];
  /** The last line had no newline (a write in flight when a process died): it was not parsed. */
  tornTail?: string;
  /** Complete lines that were not valid JSON (1-based line numbers); they are skipped, not fatal. */
  badLines: { line: number; text: string }[];
}

/**
 * One JSONL line parsed, or undefined when it is not JSON or nests deeper than `MAX_JSON_DEPTH`: a file
 * of the store may come with a cloned repository (see `parseShallowJson`).
 */
export function parseJsonLine(line: string): unknown {
  return parseShallowJson(line, MAX_JSON_DEPTH);
}

/** Parses JSONL text: complete lines only; a trailing partial line is reported, never thrown on. */
export function parseJsonl<T = unknown>(text: string): JsonlReadResult<T> {
  const result: JsonlReadResult<T> = { records: [], badLines: [] };
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail !== '') result.tornTail = tail;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const record = parseJsonLine(line);
    if (record !== undefined) result.records.push(record as T);
    else result.badLines.push({ line: i + 1, text: line.slice(0, 200) });
  });
  return result;
}

/** The most a JSONL file of the store is read whole (a session's history is resumed from up to this). */
export const MAX_JSONL_BYTES = 256 * 1024 * 1024;

/**
 * Reads and parses a JSONL file (see `parseJsonl`). A missing file reads as empty; one that is not a
 * regular file or holds more than `maxBytes` throws a ReadRefusedError.
 */
export async function readJsonl<T = unknown>(
  file: string,
  maxBytes = MAX_JSONL_BYTES,
  options: ReadOptions = {},
): Promise<JsonlReadResult<T>> {
  let text: string;
  try {
    text = await readTextFile(file, maxBytes, options);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { records: [], badLines: [] };
    throw e;
  }
  return parseJsonl<T>(text);
}
