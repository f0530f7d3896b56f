// A command given as a list of words (`{"command": "mysql", "args": ["-u", "root", "-p", "…"]}`, an MCP
// tool's argv): each string redacted alone has no context (`-p` and its value are two strings), so the
// words are read together, as the command line they make, and what the rules find there is redacted in
// the words it falls in. Linear: one join, one scan.
import { findSecretSpans } from './secrets';

/** Lists longer than this (in characters, joined) are left to the word-by-word redaction. */
const MAX_JOINED = 1 << 20;

/** Keys of a string that names the program a sibling list of words is given to (`{"command": "mysql", "args": […]}`). */
export const PROGRAM_KEY = /^(?:command|cmd|program|executable|exe|binary|bin|file|path)$/i;

/**
 * `words` with what the rules find in `words.join(' ')` (after `program`, when a sibling names it)
 * replaced by `[REDACTED:<kind>]` inside each word it covers (`count` called once per replacement), or
 * undefined when nothing was found.
 */
export function redactArgvWords(
  words: readonly string[],
  count: (kind: string) => void,
  program = '',
): string[] | undefined {
  if (words.length + (program ? 1 : 0) < 2) return undefined;
  const head = program ? `${program} ` : '';
  const starts: number[] = [];
  let joined = head.length;
  for (const w of words) {
    starts.push(joined);
    joined += w.length + 1;
    if (joined > MAX_JOINED) return undefined;
  }
  const spans = findSecretSpans(head + words.join(' ')).sort((a, b) => a.start - b.start || b.end - a.end);
  if (spans.length === 0) return undefined;
  const out = [...words];
  let changed = false;
  // Words and spans both in order: one walk over each.
  let s = 0;
  for (let i = 0; i < words.length; i++) {
    const from = starts[i]!;
    const to = from + words[i]!.length;
    while (s < spans.length && spans[s]!.end <= from) s++;
    let text = '';
    let pos = from;
    for (let k = s; k < spans.length && spans[k]!.start < to; k++) {
      const a = Math.max(spans[k]!.start, pos);
      const b = Math.min(spans[k]!.end, to);
      if (b <= a) continue;
      text += words[i]!.slice(pos - from, a - from) + `[REDACTED:${spans[k]!.kind}]`;
      count(spans[k]!.kind);
      pos = b;
    }
    if (pos > from) {
      out[i] = text + words[i]!.slice(pos - from);
      changed = true;
    }
  }
  return changed ? out : undefined;
}
