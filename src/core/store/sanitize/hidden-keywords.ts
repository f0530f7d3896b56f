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

/** Positions (in `text`, increasing) where a keyword starts, as written or as decoded; adds their rules to `out`. */
export function keywordStarts<T>(index: KeywordIndex<T>, text: string, out: Set<T>): number[] {
  const direct: number[] = [];
  index.scan(text, out, (pos) => direct.push(pos));
  if (!ESCAPED_ALNUM.test(text)) return direct;
  const view = decodedView(text);
  if (!view) return direct;
  const hidden: number[] = [];
  index.scan(view.text, out, (pos) => hidden.push(view.start[pos]!));
  if (hidden.length === 0) return direct;
  // Both lists are increasing (a decoded character's source start never goes back): merge them.
  const all: number[] = [];
  let i = 0;
  let j = 0;
  while (i < direct.length || j < hidden.length)
    all.push(j >= hidden.length || (i < direct.length && direct[i]! <= hidden[j]!) ? direct[i++]! : hidden[j++]!);
  return all;
}
