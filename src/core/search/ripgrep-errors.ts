// ripgrep's failures: its error class, and its error output read (unreadable paths, invalid patterns).

/** rg failed (bad regex, unreadable path): the message is rg's own. */
export class RipgrepError extends Error {
  override readonly name = 'RipgrepError';
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** rg's error output kept (its first lines; a search of many unreadable folders writes many). */
export const MAX_STDERR = 8192;
// rg's report of one path it could not search: `rg: <path>: <reason> (os error 13)` (older rg: no `rg: `).
const PATH_ERROR = /^(?:rg: )?(.+) \(os error \d+\)$/;

/**
 * The paths rg reported it could not read, when that is all its error output says; undefined when it
 * says anything else (an invalid pattern, a bad glob), which is an error of the whole search.
 */
export function unreadablePaths(stderr: string): string[] | undefined {
  const lines = stderr.split('\n');
  // Cut at MAX_STDERR: the last line may be partial.
  if (stderr.length >= MAX_STDERR && !stderr.endsWith('\n')) lines.pop();
  const found: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const m = PATH_ERROR.exec(line.trimEnd());
    if (!m) return undefined;
    found.push(m[1]!);
  }
  return found.length > 0 ? found : undefined;
}

/**
 * rg's own error, said plainly: a pattern that is not a valid regular expression gets one sentence that
 * names the problem and where it is, and the way out (literal search), instead of rg's multi-line report.
 */
export function describeRipgrepError(stderr: string, pattern: string): string {
  const text = stderr.trim().replace(/^rg: /, '');
  if (!text.startsWith('regex parse error')) return text || 'ripgrep failed';
  const lines = text.split('\n');
  const problem = lines.find((l) => l.startsWith('error: '))?.slice('error: '.length) ?? 'it cannot be parsed';
  const caret = lines.findIndex((l) => /^\s*\^+\s*$/.test(l));
  let where = '';
  if (caret > 0) {
    const shown = lines[caret - 1]!;
    const indent = shown.length - shown.trimStart().length;
    // Newer rg shows the pattern wrapped in a group: count from the user's pattern.
    const wrapped = shown.trim() === `(?:${pattern})` ? 3 : 0;
    const at = lines[caret]!.indexOf('^') - indent - wrapped;
    if (at >= 0 && at < pattern.length) where = ` at character ${at + 1}`;
  }
  return `Not a valid regular expression: ${problem}${where} in ${JSON.stringify(pattern)}. Escape special characters such as ( [ { with a backslash, or search for literal text.`;
}
