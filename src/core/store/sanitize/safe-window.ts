// Where to cut a window out of a long line (grep's window around a match, read_file's window from a
// column) so that the window, redacted alone, shows what the line redacted whole shows there.
import { CLIP_MARGIN, findSecretSpans, redactSecretsSync, secretSafeSlice } from './secrets';

/** A cut that has not settled after this many moves is given up: the window ends where it starts. */
const MAX_MOVES = 256;

/**
 * `[from, to)` of `text` widened or narrowed so that no secret is cut (secretSafeSlice keeps `keep`
 * inside) and no rule loses the context it looks at past its match: a URL's password needs the host
 * after its `@`, so a cut right after the `@` left the password in the clear. Each cut moves on until
 * redacting the two sides alone reads as redacting them together. The end never moves back to `keep` or
 * before it: the window always holds the column asked for.
 */
export function secretSafeWindow(text: string, from: number, to: number, keep: number): [number, number] {
  let [a, b] = secretSafeSlice(text, from, to, keep);
  for (let moves = 0; changesRedaction(text, a); moves++) {
    if (moves >= MAX_MOVES) return [a, a];
    a = Math.min(a - 1, lastMatchBefore(text, a)?.matchStart ?? a - 1);
  }
  for (let moves = 0; changesRedaction(text, b); moves++) {
    if (moves >= MAX_MOVES) return [a, a];
    const s = lastMatchBefore(text, b);
    b = s && s.matchStart > Math.max(a, keep) && s.matchStart < b ? s.matchStart : Math.max(b + 1, s?.matchEnd ?? 0);
  }
  return [a, Math.max(a, b)];
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
