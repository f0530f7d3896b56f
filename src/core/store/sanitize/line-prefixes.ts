// What a tool prints before each line of a file: grep's `path:12:`, `cat -n`'s number and tab (an
// agent's Read tool: `12→`), a diff's `+`, `docker compose logs`' `web-1 | `.
// Rules that read a file's lines (a YAML block, `- name: DB_PASSWORD`, `.netrc`'s `password`, a
// `.pgpass` line) also run on a view of the text with these prefixes taken out.
import type { DecodedView } from './decoded-view';

/** A line number: `cat -n` and `nl` (a tab), an agent's Read tool (`→`, DEL in the ASCII view), `12:`, `12|`. */
const NUMBERED = String.raw`[ \t]*\d{1,7}(?:\t|\x7f|\u2192|:[ \t]?|\|[ \t]?)`;
/**
 * grep's and rg's `path:12:` and context lines `path-12-` (a path of digits alone is a date's
 * `2026-11-`, checked below); `path:` of a file with a folder or an extension.
 */
const GREP = String.raw`(?<path>[^\s:"'=]{1,200}?)(?::\d{1,7}:|-\d{1,7}-)|(?:[\w.@+-]+\/)+[\w.@+-]+:(?=\S)|[\w@+-]*\.\w{1,10}:(?=\S)`;
/** A compose service's `web-1  | `, kubectl's `[pod/name/container] `. */
const CONTAINER = String.raw`[\w.-]{1,60}[ \t]*\|[ \t]?|\[pod\/[^\]\s]{1,200}\][ \t]`;
/** A unified diff's added or removed line. */
const DIFF = '[+-]';
/**
 * At most one of each, in the order tools stack them (`docker compose logs` of a numbered listing). Not
 * a log's timestamp: timestamped lines are most of a terminal's output and rarely show a file.
 */
const PREFIX = new RegExp(`(?:${CONTAINER})?(?:${NUMBERED}|${DIFF}|${GREP})?`, 'y');

/**
 * `text` (of view `v`, or the source itself) without the output prefixes at its lines' starts, each
 * character mapped to its source as in `v`; undefined when no line has one. With `onlyPrefixed`, only
 * the lines that had one (the others were read as they are). Linear: one bounded sticky match per line.
 */
export function withoutPrefixes(text: string, v?: DecodedView, onlyPrefixed = false): DecodedView | undefined {
  const kept: number[] = [];
  let run = 0;
  let found = false;
  for (let line = 0; line < text.length;) {
    PREFIX.lastIndex = line;
    const m = PREFIX.exec(text);
    const nl = text.indexOf('\n', line);
    const next = nl === -1 ? text.length : nl + 1;
    // A prefix that is the whole line leaves it as it was (`123` alone, a `-` under a heading).
    const prefix = m !== null && m[0].length > 0 && !/^[\d-]*$/.test(m.groups?.path ?? 'x');
    const cut = prefix && line + m[0].length < next - 1 ? line + m[0].length : -1;
    if (cut !== -1) {
      found = true;
      if (onlyPrefixed) kept.push(cut, next);
      else kept.push(run, line);
      run = cut;
    }
    line = next;
  }
  if (!found) return undefined;
  if (!onlyPrefixed) kept.push(run, text.length);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; i < kept.length; i += 2) size += kept[i + 1]! - kept[i]!;
  const start = new Int32Array(size);
  const end = new Int32Array(size);
  let n = 0;
  for (let i = 0; i < kept.length; i += 2) {
    const [from, to] = [kept[i]!, kept[i + 1]!];
    parts.push(text.slice(from, to));
    for (let j = from; j < to; j++, n++) {
      start[n] = v ? v.start[j]! : j;
      end[n] = v ? v.end[j]! : j + 1;
    }
  }
  return { text: parts.join(''), start, end };
}
