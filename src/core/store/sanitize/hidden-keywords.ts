// Where the keyword prefilter finds a rule's keyword. A keyword may be spelt with escapes that any
// reader decodes: `\u0067hp_…` in JSON, `%67hp_…` in a URL, `&#103;hp_…` in HTML are `ghp_…`, and the
// prefilter, reading the text as written, would run no rule on that line. Text holding an escaped
// letter or digit is scanned once more as decoded (decoded-view.ts), each hit mapped back to where its
// escape starts. Linear: two scans and one decoding of the text.
import { decodedView } from './decoded-view';
import type { KeywordIndex } from './keywords';

/** An escape standing for a letter or a digit (other escaped characters leave keywords readable). */
const ESCAPED_ALNUM =
  /\\u00(?:3[0-9]|[46][1-9a-fA-F]|[57][0-9aA])|%(?:3[0-9]|[46][1-9a-fA-F]|[57][0-9aA])|&#(?:4[89]|5[0-7]|6[5-9]|[7-9][0-9]|1[01][0-9]|12[0-2]|x[3-7][0-9a-fA-F]);/;

/**
 * Calls `found(pos)` for every position (increasing) where a keyword starts, as written or as decoded,
 * after adding its rules to `out`: `KeywordIndex.scan`, unless the text holds an escaped letter or digit.
 */
export function scanKeywords<T>(index: KeywordIndex<T>, text: string, out: Set<T>, found: (pos: number) => void): void {
  if (!ESCAPED_ALNUM.test(text)) return index.scan(text, out, found);
  const view = decodedView(text);
  if (!view) return index.scan(text, out, found);
  const direct: number[] = [];
  const hidden: number[] = [];
  index.scan(text, out, (pos) => direct.push(pos));
  index.scan(view.text, out, (pos) => hidden.push(view.start[pos]!));
  // Both lists are increasing (a decoded character's source start never goes back): merged in order.
  let i = 0;
  let j = 0;
  while (i < direct.length || j < hidden.length)
    found(j >= hidden.length || (i < direct.length && direct[i]! <= hidden[j]!) ? direct[i++]! : hidden[j++]!);
}
