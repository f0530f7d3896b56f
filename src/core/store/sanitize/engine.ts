// The rule engine: one keyword pass over the text picks the candidate lines and the rules they need;
// only those rules run, only on those lines (as written and decoded, see decoded-view.ts). Text without
// any keyword costs one table scan (keywords.ts).
import { DECODE_PASSES, decodedView, eachStringView, type DecodedView } from './decoded-view';
import { scanKeywords } from './hidden-keywords';
import { KeywordIndex, type Keyword } from './keywords';
import { stampedLines, withoutPrefixes } from './line-prefixes';
import { entropy, requotedWidths, type SecretRule } from './rules/types';

/** A range of the text to replace with `[REDACTED:<kind>]`; lower `priority` names overlapping ranges. */
export interface Span {
  start: number;
  end: number;
  kind: string;
  priority: number;
  /** The whole match (key, separator and value): a cut inside it loses the context the rule needs. */
  matchStart: number;
  matchEnd: number;
}

/** A rejected value longer than this is not searched again for the rule's next find. */
const MAX_REREAD = 1024;

interface Compiled extends SecretRule {
  order: number;
  /** The pattern has a `^` that matches at a line's start (outside classes, not escaped). */
  lineStart: boolean;
}

/** A run of whole lines copied from the text into the view. */
interface Piece {
  viewStart: number;
  origStart: number;
  length: number;
}

function compile(rule: SecretRule, order: number): Compiled {
  const flags = new Set(rule.pattern.flags);
  flags.add('g');
  flags.add('d');
  const caret = rule.pattern.source.replace(/\\.|\[(?:[^\]\\]|\\.)*\]/g, '').includes('^');
  const lineStart = rule.pattern.multiline && caret;
  return { ...rule, order, lineStart, pattern: new RegExp(rule.pattern.source, [...flags].join('')) };
}

/**
 * The text with every non-ASCII UTF-16 unit replaced by DEL (0x7f). Same length, so match ranges map
 * back 1:1; DEL is, like any non-ASCII character, neither a word character nor whitespace, so no rule
 * (all match ASCII token shapes) matches differently. Why: V8 runs the rule set's regexes ~5x slower on
 * two-byte strings, and one emoji or check mark in a 64 KB batch makes the whole string two-byte.
 */
export function asciiView(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? text.replace(/[^\x00-\x7f]/g, '\x7f') : text;
}

/**
 * A keyword as written where the decoded view reads it (decoded-view.ts): its quotes escaped once inside
 * a JSON string (`\"auth\"`), three times inside a string of that (`\\\"auth\\\"`), and so on for each
 * of the DECODE_PASSES levels, with JSON's escaped slashes (`:\/\/`), as HTML entities (`&quot;auth&quot;`,
 * `password&gt;`) and URL-encoded (`postgres%3A%2F%2F`).
 */
function keywordVariants(keyword: string): string[] {
  const out = new Set([keyword]);
  // JSON escapes quotes (1, 3, 7 backslashes deep), and may escape slashes (PHP's json_encode does:
  // `https:\/\/`), again at each level or only once (JSON.stringify leaves `/` alone: 1, 2, 4).
  for (let level = 1, slashes = 1; level <= DECODE_PASSES; level++, slashes = slashes * 2 + 1) {
    if (keyword.includes('"') && level < DECODE_PASSES) out.add(keyword.replaceAll('"', `${'\\'.repeat(slashes)}"`));
    if (keyword.includes('/'))
      for (const n of [slashes, 2 ** (level - 1)]) out.add(keyword.replaceAll('/', `${'\\'.repeat(n)}/`));
  }
  out.add(keyword.replace(/[&<>"']/g, (c) => HTML_ENTITY[c]!));
  out.add(encodeURIComponent(keyword));
  return [...out];
}
const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class RedactionEngine {
  private readonly rules: Compiled[];
  private readonly index: KeywordIndex<number>;
  /** Rules without keywords (user patterns): they run on the whole text. */
  private readonly everywhere: Compiled[];

  constructor(rules: readonly SecretRule[]) {
    this.rules = rules.map(compile);
    this.everywhere = this.rules.filter((r) => r.keywords.length === 0);
    const keywords: Keyword<number>[] = [];
    for (const r of this.rules)
      for (const text of r.keywords)
        for (const variant of keywordVariants(text))
          keywords.push({ text: variant, exact: r.exactKeywords === true, target: r.order });
    this.index = new KeywordIndex(keywords);
  }

  /** The rules, in priority order. */
  get ruleList(): readonly SecretRule[] {
    return this.rules;
  }

  /**
   * Finds secrets in `text`. `all` runs every rule on every line (the reference the keyword
   * prefilter is tested against).
   */
  scan(text: string, options: { all?: boolean } = {}): Span[] {
    const triggered = new Set<number>();
    const pieces: Piece[] = [];
    let view = '';
    if (options.all) {
      for (const r of this.rules) triggered.add(r.order);
      pieces.push({ viewStart: 0, origStart: 0, length: text.length });
      view = text;
    } else {
      let lineEnd = -1;
      scanKeywords(this.index, text, triggered, (pos) => {
        if (pos < lineEnd) return;
        const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
        const nl = text.indexOf('\n', pos);
        lineEnd = nl === -1 ? text.length : nl + 1;
        const last = pieces[pieces.length - 1];
        if (last && last.origStart + last.length === lineStart) last.length += lineEnd - lineStart;
        else pieces.push({ viewStart: view.length, origStart: lineStart, length: lineEnd - lineStart });
        view += text.slice(lineStart, lineEnd);
      });
    }
    view = asciiView(view);
    const spans: Span[] = [];
    let whole: string | undefined;
    if (triggered.size > 0) {
      const lineRules: Compiled[] = [];
      let wholeDecoded: DecodedView | undefined | null = null;
      const spanning: Compiled[] = [];
      for (const order of triggered) {
        const rule = this.rules[order]!;
        if (!rule.multiline) {
          lineRules.push(rule);
          continue;
        }
        whole ??= asciiView(text);
        this.run(rule, whole, undefined, (o) => o, spans);
        // Also as decoded: a key file inside a JSON string, with a colour code inside a line of it.
        if (rule.asWrittenOnly) continue;
        if (wholeDecoded === null) wholeDecoded = decodedView(whole);
        if (wholeDecoded) this.run(rule, wholeDecoded.text, wholeDecoded, (o) => o, spans);
        if (rule.lineStart || rule.fileLines) spanning.push(rule);
      }
      // The rules also read the text without tools' line prefixes (grep's `path:12:`, `cat -n`, a diff's
      // `+`), and each multi-line string alone: a file printed in JSON (`"content": "password: |\n  …"`)
      // has its first line right after the quote.
      if (spanning.length > 0) {
        whole ??= asciiView(text);
        // A logger's time goes only where it is before a line holding one of these rules' keywords (it
        // is before most lines of a terminal: a view without it would be the whole text again).
        const stamps = this.stampedKeywords(view, spanning);
        this.runWithoutPrefixes(spanning, whole, undefined, false, (o) => o, spans, stamps);
        if (wholeDecoded) {
          const inStrings = stamps || this.stampedKeywords(wholeDecoded.text, spanning);
          this.runWithoutPrefixes(spanning, wholeDecoded.text, wholeDecoded, false, (o) => o, spans, inStrings);
        }
        this.runInStrings(whole, false, spanning, (o) => o, spans);
      }
      const toOrig = (o: number): number => toOriginal(pieces, o);
      const decoded = lineRules.length > 0 ? decodedView(view) : undefined;
      for (const rule of lineRules) {
        this.run(rule, view, undefined, toOrig, spans);
        if (decoded) this.run(rule, decoded.text, decoded, toOrig, spans);
      }
      // A line rule reads again only the lines that had a prefix; a logger's time (most lines of a
      // terminal) only for the rules reading a line from its start, the others find a secret after it.
      for (const stamps of [false, true]) {
        const rules = lineRules.filter((r) => r.lineStart === stamps);
        this.runWithoutPrefixes(rules, view, undefined, true, toOrig, spans, stamps);
        if (decoded) this.runWithoutPrefixes(rules, decoded.text, decoded, true, toOrig, spans, stamps);
      }
      if (lineRules.length > 0) this.runInStrings(view, true, lineRules, toOrig, spans);
    }
    if (this.everywhere.length > 0) {
      whole ??= asciiView(text);
      const decoded = decodedView(whole);
      for (const rule of this.everywhere) {
        this.run(rule, whole, undefined, (o) => o, spans);
        if (decoded) this.run(rule, decoded.text, decoded, (o) => o, spans);
      }
    }
    return spans;
  }

  /**
   * Runs `rules` on each multi-line string of `text` alone (see `eachStringView`): each rule on the
   * strings whose first line holds one of its keywords, as the rules run on the lines that hold them;
   * those anchored at a line's start as it is, all without its lines' prefixes (`     1→` of an agent's
   * Read tool). A match only this finds starts on that first line (the others start lines in the
   * decoded view, read there with and without prefixes).
   */
  private runInStrings(
    text: string,
    firstLine: boolean,
    rules: readonly Compiled[],
    toOrig: (o: number) => number,
    out: Span[],
  ): void {
    const inHead = new Set<number>();
    eachStringView(
      text,
      firstLine,
      (sv) => {
        const hit = rules.filter((rule) => inHead.has(rule.order));
        for (const rule of hit) if (rule.lineStart) this.run(rule, sv.text, sv, toOrig, out);
        this.runWithoutPrefixes(hit, sv.text, sv, firstLine, toOrig, out);
      },
      (head) => {
        inHead.clear();
        this.index.scan(head, inHead, () => undefined);
        return rules.some((r) => inHead.has(r.order));
      },
    );
  }

  /** Whether a line of `text` that starts with a logger's time holds a keyword of one of `rules`. */
  private stampedKeywords(text: string, rules: readonly Compiled[]): boolean {
    const lines = stampedLines(text);
    const hit = new Set<number>();
    if (lines.length > 0) this.index.scan(lines, hit, () => undefined);
    return rules.some((r) => hit.has(r.order));
  }

  /** Runs `rules` on `text` (of view `v`) without its lines' output prefixes, if it has any. */
  private runWithoutPrefixes(
    rules: readonly Compiled[],
    text: string,
    v: DecodedView | undefined,
    onlyPrefixed: boolean,
    toOrig: (o: number) => number,
    out: Span[],
    stamps = true,
  ): void {
    const p = rules.length > 0 ? withoutPrefixes(text, v, onlyPrefixed, stamps) : undefined;
    if (!p) return;
    // Only the lines that had a prefix are new to a line rule: it runs if they hold its keywords.
    const hit = new Set<number>();
    if (onlyPrefixed) this.index.scan(p.text, hit, () => undefined);
    for (const rule of rules) if (!onlyPrefixed || hit.has(rule.order)) this.run(rule, p.text, p, toOrig, out);
  }

  private run(
    rule: Compiled,
    text: string,
    dv: DecodedView | undefined,
    toOrig: (o: number) => number,
    out: Span[],
  ): void {
    const re = rule.pattern;
    const regions = rule.within && (dv ? inOneString(rule.within(text), text, dv) : rule.within(text));
    if (regions?.length === 0) return;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const whole: [number, number] = [m.index, m.index + m[0].length];
      let [s, e] = m.indices?.groups?.secret ?? whole;
      const limit = regions ? regionEnd(regions, s) : e;
      if (limit === -1) {
        if (m[0].length === 0) re.lastIndex++;
        continue;
      }
      // A value ends with its region: a block in a string ends before the string's closing quote.
      if (e > limit) {
        e = limit;
        while (e > s && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
      }
      // A rejected value may itself start the next find (`["PASSWORD"] = password = "…"`: the value
      // `password` is a name, and the key of the real secret): search on from the value, not past it.
      // Past a long one: read again from its start at every key it holds, `authorization=` repeated
      // over a line was quadratic (13 s for 140 KB).
      const rejected = (): void => {
        const value = m!.indices?.groups?.secret;
        const from = value && value[1] - value[0] > MAX_REREAD ? value[1] : (value?.[0] ?? 0);
        re.lastIndex = Math.max(whole[0] + 1, from);
      };
      if (m[0].length === 0) re.lastIndex++;
      // A string opened by an escaped quote is a string inside a string (JSON in a JSON log): as written,
      // its closing `\"` and its line breaks (`\\n`) read as escapes inside the value, which then ran
      // to the line's end and broke the JSON. The decoded view reads it at its own level.
      const open = m.indices?.groups?.open;
      if (!dv && open && text.charCodeAt(open[0] - 1) === 92) continue;
      // A quoted value is redacted inside its quotes: `"[REDACTED:x]"` stays valid JSON and code.
      const q = text[s];
      const quoted = e - s >= 2 && (q === '"' || q === "'" || q === '`') && text[e - 1] === q;
      // A shell's `'"'"'…'"'"'` keeps its quoting too, so a command stays one.
      const [reopen, reclose] = quoted && q === "'" ? requotedWidths(text.slice(s, e)) : [0, 0];
      if (reopen > 0) [s, e] = [s + reopen, e - reclose];
      else if (quoted) [s, e] = [s + 1, e - 1];
      if (e <= s) continue;
      const value = text.slice(s, e);
      if (
        (rule.entropy !== undefined && entropy(value) < rule.entropy) ||
        (rule.accept && !rule.accept(value, quoted))
      ) {
        rejected();
        continue;
      }
      if (!dv) [s, e] = outsideEscapes(text, s, e);
      if (e <= s) continue;
      let [ms, me] = whole;
      if (dv) [s, e, ms, me] = [dv.start[s]!, dv.end[e - 1]!, dv.start[ms]!, dv.end[me - 1]!];
      out.push({
        start: toOrig(s),
        end: toOrig(e - 1) + 1,
        kind: rule.id,
        priority: rule.order,
        matchStart: toOrig(ms),
        matchEnd: toOrig(me - 1) + 1,
      });
    }
    re.lastIndex = 0;
  }
}

/**
 * A span as written that ends on a backslash escaping the next character (`…secret\\"` in JSON) would
 * leave that character unescaped, and one that starts on an escaped character would leave a backslash
 * before the marker: both break the JSON (or JSON in JSON) the secret sits in. The span gives up its
 * trailing backslashes and takes in the ones before it.
 */
function outsideEscapes(text: string, s: number, e: number): [number, number] {
  while (s > 0 && text.charCodeAt(s - 1) === 92) s--;
  while (e > s && text.charCodeAt(e - 1) === 92) e--;
  return [s, e];
}

/**
 * Regions found in a decoded view, each cut at the first line break that is one in the text as written,
 * and at the closing quote of the string the block's key sits in: a block whose key sits in a string
 * (`"stringData:\\n  token: abc"`) ends with that string, not with the quote and the code lines after
 * it, which the view reads as the block's last line and its indented lines. The strings are followed in
 * one pass over the regions' lines (a minified line may hold many).
 */
function inOneString(
  regions: ReadonlyArray<readonly [number, number]>,
  text: string,
  dv: DecodedView,
): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  const written = (i: number): boolean => dv.end[i]! - dv.start[i]! === 1;
  // The string open at `pos` as written: its quote, or '' outside strings.
  let pos = 0;
  let quote = '';
  for (const [start, end] of regions) {
    // The key line's break: written as an escape (`\n`, more than one character), the block is in a string.
    const keyBreak = start - 1;
    if (keyBreak < 0 || written(keyBreak)) {
      out.push([start, end]);
      continue;
    }
    if (pos > keyBreak) [pos, quote] = [text.lastIndexOf('\n', keyBreak) + 1, ''];
    for (; pos < keyBreak; pos++) {
      const c = text[pos]!;
      if (!written(pos)) continue;
      if (c === '\n') quote = '';
      else if (quote === '' ? c === '"' || c === "'" || c === '`' : c === quote) quote = quote === '' ? c : '';
    }
    let cut = end;
    let nl = text.indexOf('\n', start);
    while (nl !== -1 && nl < end && !written(nl)) nl = text.indexOf('\n', nl + 1);
    if (nl !== -1 && nl < end) cut = nl + 1;
    if (quote !== '')
      for (let q = text.indexOf(quote, start); q !== -1 && q < cut; q = text.indexOf(quote, q + 1))
        if (written(q)) {
          cut = q;
          break;
        }
    out.push([start, cut]);
  }
  return out;
}

/** The end of the region `offset` lies in (sorted by start, not overlapping), or -1. */
function regionEnd(regions: ReadonlyArray<readonly [number, number]>, offset: number): number {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end] = regions[mid]!;
    if (offset < start) hi = mid - 1;
    else if (offset >= end) lo = mid + 1;
    else return end;
  }
  return -1;
}

/** Maps an offset in the view back to the text. */
function toOriginal(pieces: readonly Piece[], offset: number): number {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid]!.viewStart <= offset) lo = mid;
    else hi = mid - 1;
  }
  const p = pieces[lo];
  return p ? p.origStart + (offset - p.viewStart) : offset;
}
