// In rendered terminal output a carriage return lets later text overwrite the start of a line: a token
// printed and then partly covered (`ghp_…\r⠋`, `DB_PASSWORD=…\rdone`) shows without the prefix or name
// its rule finds it by, while its body stays on the screen. The raw segments a `\r` ends (not a CRLF
// line end) are read for secrets before rendering, and what is left of those secrets in the rendered
// text is redacted under the same rule.
import { stripControls } from '../../terminal-controls';
import { findSecretSpans, type RedactionCounts } from './secrets';

/** Secrets remembered at once (the oldest forgotten first). */
const MAX_REMEMBERED = 64;
/** Characters left of a secret that are redacted (fewer say nothing of it; the tail anchors the search). */
const MIN_REMAINS = 8;
/** An unfinished segment kept for the next chunk, at most (a progress line is far shorter). */
const MAX_SEGMENT = 64 * 1024;

export class OverwrittenSecrets {
  /** The raw segment still open at the end of the last chunk. */
  private segment = '';
  /** Secret value -> its rule, oldest first. */
  private readonly values = new Map<string, string>();

  /** Reads raw decoded text, before it is rendered. */
  note(text: string): void {
    const s = this.segment + text;
    const over: string[] = [];
    let from = 0;
    // The next line break at or after the current `\r`, found going forward only: a progress line can
    // hold thousands of redraws, and looking back for the line's start from each would be quadratic.
    let nl = s.indexOf('\n');
    for (let i = s.indexOf('\r'); i !== -1;) {
      if (i + 1 === s.length) break; // a CRLF's `\n` may come in the next chunk
      let start = from;
      while (nl !== -1 && nl < i) {
        start = Math.max(start, nl + 1);
        nl = s.indexOf('\n', nl + 1);
      }
      const next = s.indexOf('\r', i + 1);
      if (nl !== i + 1 && i > start) {
        // Only a segment MIN_REMAINS or more longer than the text written over it shows that much of
        // itself afterwards; a progress bar redrawn at about the same width hides its earlier states
        // (and they are not read for secrets: that would cost more than rendering them).
        const coveredBy = Math.min(next === -1 ? s.length : next, nl === -1 ? s.length : nl) - (i + 1);
        if (coveredBy + MIN_REMAINS <= i - start) over.push(s.slice(start, i));
      }
      from = i + 1;
      i = next;
    }
    const open = s.indexOf('\r', from) === s.length - 1 ? Math.max(from, s.lastIndexOf('\n', s.length - 2) + 1) : -1;
    const rest = open !== -1 ? open : Math.max(from, s.lastIndexOf('\n') + 1);
    this.segment = s.length - rest > MAX_SEGMENT ? s.slice(s.length - MAX_SEGMENT) : s.slice(rest);
    if (over.length === 0) return;
    const plain = stripControls(over.join('\n'));
    for (const span of findSecretSpans(plain)) {
      const value = plain.slice(span.start, span.end);
      if (value.length < MIN_REMAINS) continue;
      this.values.delete(value);
      this.values.set(value, span.kind);
      if (this.values.size > MAX_REMEMBERED) this.values.delete(this.values.keys().next().value!);
    }
  }

  /** Rendered text with what is left of each remembered secret (its last MIN_REMAINS or more) redacted. */
  scrub(text: string): { text: string; counts: RedactionCounts } {
    const counts: RedactionCounts = {};
    if (this.values.size === 0) return { text, counts };
    const ranges: [number, number, string][] = [];
    for (const [value, kind] of this.values) {
      const tail = value.slice(-MIN_REMAINS);
      for (let at = text.indexOf(tail); at !== -1; at = text.indexOf(tail, at + 1)) {
        let start = at;
        let k = value.length - tail.length;
        while (k > 0 && start > 0 && text[start - 1] === value[k - 1]) [start, k] = [start - 1, k - 1];
        ranges.push([start, at + tail.length, kind]);
      }
    }
    if (ranges.length === 0) return { text, counts };
    ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let out = '';
    let pos = 0;
    for (const [start, end, kind] of ranges) {
      if (end <= pos) continue;
      if (start >= pos) {
        out += text.slice(pos, start) + `[REDACTED:${kind}]`;
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      pos = end;
    }
    return { text: out + text.slice(pos), counts };
  }
}
