// The masking placeholder: the exact published text, plus the file that holds the full output when it
// was stored (reversible masking). The panel and a link provider find the path with the parser below.
import type { Message } from '../messages';

const PREFIX = 'Old environment output: (';
const STORED = '; full text: ';
const PLACEHOLDER_RE = /^Old environment output: \((\d+) lines omitted(?:; full text: ([^\r\n]+))?\)$/;

/** Lines as Python's `str.splitlines()` counts them (what the published masking counts). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  // A trailing line break ends the last line rather than starting a new, empty one.
  return /(\r\n|\r|\n)$/.test(text) ? breaks : breaks + 1;
}

// Paths are workspace-relative and rarely odd, but a line break or `%` must survive the round trip.
function encodePath(path: string): string {
  return path.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function decodePath(text: string): string {
  return text.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%25/g, '%');
}

/**
 * `Old environment output: (N lines omitted)`, or with a stored copy
 * `Old environment output: (N lines omitted; full text: <path>)`.
 */
export function formatMaskPlaceholder(lines: number, storedAt?: string): string {
  if (!Number.isInteger(lines) || lines < 0)
    throw new RangeError(`lines must be a non-negative integer (got ${lines})`);
  if (storedAt === undefined || storedAt === '') return `${PREFIX}${lines} lines omitted)`;
  return `${PREFIX}${lines} lines omitted${STORED}${encodePath(storedAt)})`;
}

export interface ParsedPlaceholder {
  lines: number;
  storedAt?: string;
}

/** Recognizes a whole placeholder message; undefined for anything else. */
export function parseMaskPlaceholder(text: string): ParsedPlaceholder | undefined {
  const m = PLACEHOLDER_RE.exec(text);
  if (!m) return undefined;
  const lines = Number(m[1]);
  return m[2] === undefined ? { lines } : { lines, storedAt: decodePath(m[2]) };
}

/** Every stored path named by a placeholder inside a longer text (for link providers), with offsets. */
export function findPlaceholderPaths(text: string): { path: string; start: number; end: number }[] {
  // A placeholder's path runs to the `)` that ends its line, so a line holds at most one: the first
  // placeholder head on a line ending in `)` that reads whole. Each head is tried once, and a head that
  // reads whole always matches on such a line (a search from every head to the line's end was quadratic).
  const head = 'Old environment output: (';
  const re = /Old environment output: \(\d+ lines omitted; full text: ([^\r\n]+)\)(?=\r?$)/my;
  const found: { path: string; start: number; end: number }[] = [];
  for (let at = text.indexOf(head); at !== -1;) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl === -1 ? text.length : nl;
    const closes = text[lineEnd - 1] === ')' || (text[lineEnd - 1] === '\r' && text[lineEnd - 2] === ')');
    let m: RegExpExecArray | null = null;
    for (let h = at; closes && h !== -1 && h < lineEnd && !m; h = text.indexOf(head, h + 1)) {
      re.lastIndex = h;
      m = re.exec(text);
    }
    if (m) {
      const start = m.index + m[0].length - 1 - m[1]!.length;
      found.push({ path: decodePath(m[1]!), start, end: start + m[1]!.length });
    }
    at = nl === -1 ? -1 : text.indexOf(head, nl);
  }
  return found;
}

// One placeholder object per original message, so repeated calls send the very same message
// (cheap equality in the cache model, one tokenization).
const placeholders = new WeakMap<Message, Message>();
const lineCounts = new WeakMap<Message, number>();

/** The lines of a message's content, counted once per message (every later call masks it again). */
export function linesOf(m: Message): number {
  let lines = lineCounts.get(m);
  if (lines === undefined) lineCounts.set(m, (lines = countLines(m.content)));
  return lines;
}

/** The observation with its content replaced; role, tool-call id, name and storedAt are kept. */
export function maskMessage(m: Message): Message {
  let masked = placeholders.get(m);
  if (!masked) {
    // The placeholder replaces the images too: their tokens go with the content.
    const { mediaTokens: _images, ...kept } = m;
    masked = { ...kept, content: formatMaskPlaceholder(linesOf(m), m.storedAt) };
    placeholders.set(m, masked);
  }
  return masked;
}
