// What a tool prints before each line of a file: grep's `path:12:`, `cat -n`'s number and tab (an
// agent's Read tool: `12→`), a diff's `+`, `docker compose logs`' `web-1 | `.
// Rules that read a file's lines (a YAML block, `- name: DB_PASSWORD`, `.netrc`'s `password`, a
// `.pgpass` line) also run on a view of the text with these prefixes taken out. So does a shell's
// continuation prompt before each line of a here-doc typed in a terminal (`> `, zsh's `heredoc> `).
import type { DecodedView } from './decoded-view';

/** A line number: `cat -n` and `nl` (a tab), an agent's Read tool (`→`, DEL in the ASCII view), `12:`, `12|`. */
const NUMBERED = String.raw`[ \t]*\d{1,7}(?:\t|\x7f|\u2192|:[ \t]?|\|[ \t]?)`;
/**
 * grep's and rg's `path:12:` and context lines `path-12-` (a path of digits alone is a date's
 * `2026-11-`, checked below); `path:` of a file with a folder or an extension.
 */
const GREP = String.raw`([^\s:"'=]{1,200}?)(?::\d{1,7}:|-\d{1,7}-)|(?:[\w.@+-]+\/)+[\w.@+-]+:(?=\S)|[\w@+-]*\.\w{1,10}:(?=\S)`;
/** A compose service's `web-1  | `, kubectl's `[pod/name/container] `. */
const CONTAINER = String.raw`[\w.-]{1,60}[ \t]*\|[ \t]?|\[pod\/[^\]\s]{1,200}\][ \t]`;
/**
 * A prompt before a typed line: bash's continuation `> ` (each line of a here-doc or of a quoted
 * multi-line argument), zsh's `heredoc> ` / `dquote> `, PowerShell's `>> `, `$ ` before the command;
 * a terminal log's header writes its command's lines after `␞ $ ` and `␞ > ` (DEL in the ASCII view).
 */
const PROMPT = String.raw`(?:[\u241e\x7f] )?(?:[$>] |>> |(?:[a-z]{2,8} ){0,3}(?:heredoc|quote|dquote|bquote|cmdsubst|subsh|pipe|then|else|for|while|if)> )`;
/** A unified diff's added or removed line. */
const DIFF = '[+-]';
/**
 * A logger's time and level, as a file printed line by line by a logger or a CI job shows it:
 * `2026-11-26T07:00:00.1234567Z ` (GitHub Actions, `kubectl logs --timestamps`), Python's
 * `2026-11-26 07:00:00,123 WARNING `, `[12:00:01] INFO  `. Seconds are required (a date alone is prose);
 * the level's padding to five characters goes with it, the line's own indentation stays.
 */
export const STAMP = String.raw`\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?[ \t](?:\[?(?:(?:INFO|WARN) ?|WARNING|NOTICE|CRITICAL|TRACE|DEBUG|ERROR|FATAL)\]?:?[ \t])?`;
/**
 * At most one of each, in the order tools stack them (`docker compose logs -t` of a numbered listing).
 */
const PREFIX = new RegExp(`(?:${CONTAINER})?(?:${STAMP})?(?:${PROMPT}|${NUMBERED}|${DIFF}|${GREP})?`, 'y');
const UNSTAMPED = new RegExp(`(?:${CONTAINER})?(?:${PROMPT}|${NUMBERED}|${DIFF}|${GREP})?`, 'y');
const STAMPED_LINE = new RegExp(`^(?:${CONTAINER})?${STAMP}.*`, 'gm');

/**
 * The lines of `text` that start with a logger's time (after a container's name), one per line, and the
 * line before each run of them: a block's key may be on a line the time is not in front of (a command
 * line that prints the block, ``./run.sh <time> INFO const v = `password: |``), its value on stamped lines.
 */
export function stampedLines(text: string): string {
  const out: string[] = [];
  let after = -1;
  for (const m of text.matchAll(STAMPED_LINE)) {
    if (m.index > 0 && m.index !== after) out.push(text.slice(text.lastIndexOf('\n', m.index - 2) + 1, m.index - 1));
    out.push(m[0]);
    after = m.index + m[0].length + 1;
  }
  return out.join('\n');
}

/**
 * `text` (of view `v`, or the source itself) without the output prefixes at its lines' starts, each
 * character mapped to its source as in `v`; undefined when no line has one. With `onlyPrefixed`, only
 * the lines that had one (the others were read as they are); without `stamps`, a logger's time stays
 * (for rules that read a line anywhere, not from its start). Linear: one bounded sticky match per line.
 */
export function withoutPrefixes(
  text: string,
  v?: DecodedView,
  onlyPrefixed = false,
  stamps = true,
): DecodedView | undefined {
  const re = stamps ? PREFIX : UNSTAMPED;
  const kept: number[] = [];
  let run = 0;
  let found = false;
  for (let line = 0; line < text.length;) {
    re.lastIndex = line;
    const m = re.exec(text);
    const nl = text.indexOf('\n', line);
    const end = nl === -1 ? text.length : nl;
    const next = nl === -1 ? text.length : nl + 1;
    // A prefix that is the whole line leaves it as it was (`123` alone, a `-` under a heading).
    // (Group 1 is grep's path: a numbered group, named ones cost an object per line.)
    const prefix = m !== null && m[0].length > 0 && !/^[\d-]*$/.test(m[1] ?? 'x');
    const cut = prefix && line + m[0].length < end ? line + m[0].length : -1;
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
    if (v) {
      start.set(v.start.subarray(from, to), n);
      end.set(v.end.subarray(from, to), n);
      n += to - from;
    } else
      for (let j = from; j < to; j++, n++) {
        start[n] = j;
        end[n] = j + 1;
      }
  }
  return { text: parts.join(''), start, end };
}
