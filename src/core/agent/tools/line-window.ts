// One line of a text file read as a window of characters from a given column: a minified bundle or a
// one-line JSON log is read on, a window at a time, instead of being cut for good at its start.
import { StringDecoder } from 'node:string_decoder';
import { CLIP_MARGIN, findSecretSpans, redactSecretsSync, secretSafeSlice } from '../../store/sanitize/secrets';

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
  let [a, b] = secretSafeSlice(kept, start - base, to - base, start - base);
  // A rule may look past its match (a URL's password needs the host after its `@`): moved to the match's
  // edge, a cut can still hide a secret from the piece read alone. Moved on until it does not.
  while (changesRedaction(kept, a)) a = Math.min(a - 1, lastMatchBefore(kept, a)?.matchStart ?? a - 1);
  while (changesRedaction(kept, b)) {
    const s = lastMatchBefore(kept, b);
    b = s && s.matchStart > a && s.matchStart < b ? s.matchStart : Math.max(b + 1, s?.matchEnd ?? 0);
  }
  return { text: kept.slice(a, b), start: a + base, end: b + base, length };
}

/** Whether text cut at `at`, both sides redacted alone, reads otherwise than redacted whole. */
function changesRedaction(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const lo = Math.max(0, at - CLIP_MARGIN);
  const hi = Math.min(text.length, at + CLIP_MARGIN);
  const redact = (s: string): string => redactSecretsSync(s).text;
  return redact(text.slice(lo, at)) + redact(text.slice(at, hi)) !== redact(text.slice(lo, hi));
}

/** The secret match that starts last before `at`, in offsets of `text`. */
function lastMatchBefore(text: string, at: number): { matchStart: number; matchEnd: number } | undefined {
  const lo = Math.max(0, at - CLIP_MARGIN);
  const spans = findSecretSpans(text.slice(lo, Math.min(text.length, at + CLIP_MARGIN)))
    .map((s) => ({ matchStart: s.matchStart + lo, matchEnd: s.matchEnd + lo }))
    .filter((s) => s.matchStart < at);
  return spans.sort((x, y) => y.matchStart - x.matchStart)[0];
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
