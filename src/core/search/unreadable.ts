// The paths a search could not read (a folder without permission, a file gone meanwhile), said after what
// it found elsewhere: the agent's grep, contextDesk_grepLogs and `context-desk grep` keep their matches.
import * as path from 'node:path';

/** Shown paths at most, of those rg could not read. */
export const MAX_UNREADABLE_SHOWN = 5;

// A name with a newline or other control character is quoted: as it is, it would read as another line.
export const shownName = (name: string): string => (/[\x00-\x1f\x7f]/.test(name) ? JSON.stringify(name) : name);

/**
 * A note naming the paths rg could not read and why, or '' when it read all. Each report is
 * `<path>: <reason>`, the path as rg was given it; the part under `root` is shown relative to `shownRoot`.
 */
export function unreadableNote(reports: readonly string[], root: string, shownRoot = ''): string {
  if (reports.length === 0) return '';
  const shorten = (p: string): string => shownName(p.split(root + path.sep).join(shownRoot));
  const shown = reports.slice(0, MAX_UNREADABLE_SHOWN).map(shorten);
  const rest = reports.length - shown.length;
  const n = reports.length === 1 ? '1 path' : `${reports.length} paths`;
  return `\n(${n} could not be read and ${reports.length === 1 ? 'was' : 'were'} not searched: ${shown.join('; ')}${rest > 0 ? `; and ${rest} more` : ''})`;
}
