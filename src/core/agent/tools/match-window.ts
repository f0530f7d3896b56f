// A long matching line shown as a window around its first match: cut from its start, a match past the
// cut (in a minified file, a JSON log line, a progress bar) came back as a hit without the text that hit.
import { secretSafeWindow } from '../../store/sanitize/safe-window';

/** Longest matching line shown whole (a minified file or a progress bar is one line of megabytes). */
export const GREP_LINE_CHARS = 500;
/** How long one search may take: a huge folder or a costly pattern must not hold a caller up for good. */
export const GREP_TIMEOUT_MS = 30_000;

export interface ShownLine {
  text: string;
  /** True when the line was longer than the window and cut. */
  cut: boolean;
}

/**
 * At most about `max` characters of `line` around `at` (where the first match starts), with `…` where
 * text was left out: a fifth of the window before the match, the rest from it on. Never cuts through a
 * secret, nor where a rule needs what the cut leaves out (secretSafeWindow), so the window can be a little
 * shorter, or longer by a secret it holds.
 */
export function matchWindow(line: string, at: number, max: number): ShownLine {
  if (line.length <= max) return { text: line, cut: false };
  const start = Math.min(Math.max(0, at), line.length);
  let from = Math.max(0, start - Math.floor(max / 5));
  if (line.length - from < max) from = line.length - max;
  const [a, b] = secretSafeWindow(line, from, from + max, start);
  return { text: `${a > 0 ? '…' : ''}${line.slice(a, b)}${b < line.length ? '…' : ''}`, cut: true };
}

/** Where the first match of a grep hit starts (0 when rg reported no range, e.g. an empty match). */
export const firstMatchAt = (ranges: readonly { start: number }[]): number => ranges[0]?.start ?? 0;
