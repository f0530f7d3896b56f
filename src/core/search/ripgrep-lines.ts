// ripgrep's output lines parsed into matches (`--json` records and plain `path NUL line:text` lines).
import { decodeLine } from '../legacy-encoding';

export interface GrepMatch {
  /** The file as rg printed it (absolute when the search paths are absolute). */
  file: string;
  /** 1-based line number. */
  line: number;
  /** The matching line without its line terminator. */
  text: string;
  /** Match ranges in `text` (UTF-16 offsets); empty unless `ranges` was requested. */
  ranges: { start: number; end: number }[];
  /**
   * The line is not UTF-8 and holds no UTF-8 character: `text` is its bytes read as Windows-1252 (with
   * `ranges` only; see legacy-encoding.ts).
   */
  legacy?: true;
}

interface RgText {
  text?: string;
  bytes?: string;
}
interface RgMatch {
  type: string;
  data: { path: RgText; line_number: number; lines: RgText; submatches: { start: number; end: number }[] };
}

const decode = (t: RgText): string => t.text ?? Buffer.from(t.bytes ?? '', 'base64').toString('utf8');

// Byte offsets from rg to UTF-16 offsets in the decoded line.
function toRanges(lineText: string, subs: { start: number; end: number }[]): { start: number; end: number }[] {
  if (!/[^\x00-\x7f]/.test(lineText)) return subs.map((s) => ({ start: s.start, end: s.end }));
  const buf = Buffer.from(lineText, 'utf8');
  return subs.map((s) => ({
    start: buf.subarray(0, s.start).toString('utf8').length,
    end: buf.subarray(0, s.end).toString('utf8').length,
  }));
}

export function parseJsonLine(line: string): GrepMatch | undefined {
  if (!line.startsWith('{"type":"match"')) return undefined;
  const m = JSON.parse(line) as RgMatch;
  const file = decode(m.data.path);
  // rg sends a line that is not UTF-8 as base64 bytes: a Latin-1 line is shown as such, not as U+FFFD.
  const bytes = m.data.lines.text === undefined ? Buffer.from(m.data.lines.bytes ?? '', 'base64') : undefined;
  const legacy = bytes ? decodeLine(bytes) : undefined;
  if (legacy?.legacy) {
    // One character per byte: rg's byte offsets are the text's.
    const text = legacy.text.replace(/\r?\n$/, '');
    const ranges = m.data.submatches.map((s) => ({ start: s.start, end: s.end }));
    return { file, line: m.data.line_number, text, ranges, legacy: true };
  }
  const text = decode(m.data.lines).replace(/\r?\n$/, '');
  return { file, line: m.data.line_number, text, ranges: toRanges(text, m.data.submatches) };
}

// `path NUL line:text`; anything else (e.g. a "binary file matches" notice) is skipped.
export function parsePlainLine(line: string): GrepMatch | undefined {
  const nul = line.indexOf('\0');
  const colon = line.indexOf(':', nul + 1);
  if (nul === -1 || colon === -1) return undefined;
  const n = Number(line.slice(nul + 1, colon));
  if (!Number.isInteger(n) || n < 1) return undefined;
  const end = line.endsWith('\r') ? line.length - 1 : line.length;
  return { file: line.slice(0, nul), line: n, text: line.slice(colon + 1, end), ranges: [] };
}

/** `parsePlainLine` from the line's bytes: a text that is not UTF-8 is decoded as `parseJsonLine` does. */
export function parsePlainBytes(b: Buffer): GrepMatch | undefined {
  const nul = b.indexOf(0);
  const colon = nul === -1 ? -1 : b.indexOf(58, nul + 1);
  if (colon === -1) return undefined;
  const match = parsePlainLine(b.subarray(0, colon + 1).toString('utf8'));
  if (!match) return undefined;
  const end = b[b.length - 1] === 13 ? b.length - 1 : b.length;
  const decoded = decodeLine(b.subarray(colon + 1, end));
  return { ...match, text: decoded.text, ...(decoded.legacy ? { legacy: true as const } : {}) };
}

/** Where `digits:` that starts at `from` ends (the colon), or -1 if the bytes are not a line number >= 1. */
export function lineNumberEnd(b: Buffer, from: number, limit: number): number {
  if (b[from] === 48) return -1; // no leading zero: line numbers start at 1
  let i = from;
  while (i < limit && b[i]! >= 48 && b[i]! <= 57) i++;
  return i > from && i < limit && b[i] === 58 ? i : -1;
}
