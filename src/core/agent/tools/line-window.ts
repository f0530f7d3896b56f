// One line of a text file read as a window of characters from a given column: a minified bundle or a
// one-line JSON log is read on, a window at a time, instead of being cut for good at its start.
import { StringDecoder } from 'node:string_decoder';
import { secretSafeWindow } from '../../store/sanitize/safe-window';
import { CLIP_MARGIN } from '../../store/sanitize/secrets';

/** A window of a line: `text` is line[start, end); the line has `length` characters. */
export interface Window {
  text: string;
  start: number;
  end: number;
  length: number;
}

/**
 * About `max` characters of `kept` (the line's characters from `base` on, at least CLIP_MARGIN either
 * side of the window) from `from` (0-based): never cut through a secret, so each window, redacted alone,
 * reads as the same text redacted whole. A secret at the start is taken whole (the window starts before
 * `from`); one at the end is left to the next window, unless it fills the window (then it is taken whole).
 */
export function safeWindow(kept: string, base: number, length: number, from: number, max: number): Window {
  const start = Math.min(Math.max(0, from), length);
  const to = Math.min(length, start + max);
  const [a, b] = secretSafeWindow(kept, start - base, to - base, start - base);
  return { text: kept.slice(a, b), start: a + base, end: b + base, length };
}

/**
 * Collects one line's characters as its bytes arrive, keeping only those around the window (memory stays
 * bounded on a line of hundreds of megabytes) and counting the rest.
 */
export class LineWindowReader {
  private readonly decoder = new StringDecoder('utf8');
  private readonly lo: number;
  private readonly hi: number;
  private seen = 0;
  private kept = '';
  private lastChar = '';

  constructor(
    private readonly from: number,
    private readonly max: number,
  ) {
    this.lo = Math.max(0, from - CLIP_MARGIN);
    this.hi = from + max + CLIP_MARGIN;
  }

  push(bytes: Buffer): void {
    this.take(this.decoder.write(bytes));
  }

  /** The window, once the line's bytes are all in; `newline`: a newline ended it (a `\r` before it goes). */
  finish(newline: boolean): Window {
    this.take(this.decoder.end());
    let length = this.seen;
    if (newline && this.lastChar === '\r') {
      length--;
      if (this.lo + this.kept.length > length) this.kept = this.kept.slice(0, length - this.lo);
    }
    return safeWindow(this.kept, this.lo, length, this.from, this.max);
  }

  private take(s: string): void {
    if (s === '') return;
    const a = Math.max(this.lo, this.seen);
    const b = Math.min(this.hi, this.seen + s.length);
    if (a < b) this.kept += s.slice(a - this.seen, b - this.seen);
    this.seen += s.length;
    this.lastChar = s[s.length - 1]!;
  }
}
