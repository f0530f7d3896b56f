// A long answer in parts that render alone to what the whole renders to, so a streamed chunk redraws
// only the last part: a 200 KB answer took seconds per redraw when every chunk rendered all of it.
// A part ends only at a blank line outside code fences before a line that starts a new top-level block:
// at column 0 and not a list item (which would join the list above). Raw HTML blocks can reach across
// blank lines (a <details> around the paragraphs after it): after the first one the rest is one part.
// Link reference definitions (`[1]: https://…`) serve the whole text: each part is rendered with the
// definitions of all parts that it can use (`linksUsed`), so an answer that cites stays in parts.
import type { ReferenceLinks } from './markdown';

/** Parts are at least this long (except the last): few parts, each cheap to render again. */
export const PART_SIZE = 4096;

/**
 * Parts rendered in one go: a 200 KB answer (about 50 parts) showed nothing for seconds while all of it was
 * parsed and sanitized. The newest parts come first (where a view that follows the output looks), the
 * rest as written, formatted over the next frames. Streaming too: an answer can arrive 200 KB in its first
 * chunks (1.4 s before it showed); later chunks change only the last part, which is always formatted first.
 */
export const PARTS_PER_FRAME = 6;

/** A fence opens as in marked: a backtick fence's info string has no backtick. */
const FENCE = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const HTML_BLOCK = /^ {0,3}<[A-Za-z/!?]/;

/** `text` cut into parts whose concatenation is `text` (see the top of this file for where). */
export function markdownParts(text: string, size = PART_SIZE): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  let start = 0;
  let fence: string | undefined;
  let blankBefore = false;
  for (let from = 0; from < text.length;) {
    const nl = text.indexOf('\n', from);
    // The last line may still be streaming ("1" before "1. item"): a part never starts at it.
    if (nl === -1) break;
    const line = text.slice(from, nl);
    if (fence !== undefined) {
      // Closed as marked closes it (spaces only after the run), never earlier: a cut inside code would split it.
      const close = /^ {0,3}(`{3,}|~{3,}) *$/.exec(line)?.[1];
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = undefined;
      blankBefore = false;
    } else if (HTML_BLOCK.test(line)) {
      break;
    } else {
      const cut = blankBefore && from - start >= size && /^\S/.test(line) && !LIST_ITEM.test(line);
      if (cut) {
        parts.push(text.slice(start, from));
        start = from;
      }
      fence = FENCE.exec(line)?.[1];
      blankBefore = fence === undefined && line.trim() === '';
    }
    from = nl + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

/** The definitions of the whole text from those of its parts, in order: the first of a label wins (marked). */
export function wholeLinks(defs: readonly ReferenceLinks[]): ReferenceLinks {
  const all: ReferenceLinks = {};
  for (const d of defs)
    for (const [label, link] of Object.entries(d)) if (!Object.hasOwn(all, label)) all[label] = link;
  return all;
}

/** A label as marked looks it up (its `W`): trimmed, blanks as one space, case folded. */
const normalized = (label: string): string =>
  label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();

/**
 * The definitions of `all` that `text` uses (undefined: none): those whose label is written in brackets
 * in it, as marked reads a label: from a `[` to the next `]`, with no `[` between and a backslash escaping
 * the character after it, of any length (marked has no 999-character limit). A part is rendered again when
 * these change, not whenever a definition streams in anywhere. One pass: labels never overlap.
 */
export function linksUsed(text: string, all: ReferenceLinks): ReferenceLinks | undefined {
  let used: ReferenceLinks | undefined;
  if (Object.keys(all).length === 0) return used;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x5b /* [ */) open = i;
    else if (c === 0x5d /* ] */ && open !== -1) {
      const key = normalized(text.slice(open + 1, i));
      if (key !== '' && Object.hasOwn(all, key)) (used ??= {})[key] = all[key]!;
      open = -1;
    }
  }
  return used;
}
