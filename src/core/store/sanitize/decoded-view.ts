// Text as a reader decodes it, with the way back to the source. Inside JSON or a quoted string a line
// break before a token is the two characters `\n`: the `n` glues onto the token and no word boundary is
// left. Rules therefore also run on this view, where escapes are decoded (up to four times, for JSON
// inside JSON), HTML entities, `%XX` and a CSV cell's doubled quotes read as one, and terminal sequences
// (also `\u001b[...m` ones) removed; matches map back to source ranges that cover whole escape
// sequences, so redacting them keeps JSON valid.

/** Decoded text; decoded character i came from source[start[i], end[i]). */
export interface DecodedView {
  text: string;
  start: Int32Array;
  end: Int32Array;
}

/** The one-character escapes and what they stand for. */
export const SIMPLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
};
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPE = /\\(?:[ntrbf"'\\/]|u[0-9a-fA-F]{4})/;
/** A terminal control sequence (CSI, OSC, charset and other escapes). */
export const SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+#%][ -~]|[ -~])/y;

/**
 * Builds a view from runs of the source view copied whole and single decoded characters: runs are
 * sliced and their offsets copied in bulk (a JSON log is mostly runs).
 */
class Builder {
  private readonly parts: string[] = [];
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private n = 0;
  constructor(private readonly from: DecodedView) {
    this.start = new Int32Array(from.text.length);
    this.end = new Int32Array(from.text.length);
  }
  /** Characters [i, j) of the source view, unchanged. */
  copy(i: number, j: number): void {
    if (j <= i) return;
    this.parts.push(this.from.text.slice(i, j));
    this.start.set(this.from.start.subarray(i, j), this.n);
    this.end.set(this.from.end.subarray(i, j), this.n);
    this.n += j - i;
  }
  /** One character that stands for source view characters [i, j]. */
  push(ch: string, i: number, j: number): void {
    this.parts.push(ch);
    this.start[this.n] = this.from.start[i]!;
    this.end[this.n] = this.from.end[j]!;
    this.n++;
  }
  view(): DecodedView {
    return { text: this.parts.join(''), start: this.start.subarray(0, this.n), end: this.end.subarray(0, this.n) };
  }
}

function decodeEscapes(v: DecodedView): DecodedView {
  const b = new Builder(v);
  const t = v.text;
  let run = 0;
  for (let i = t.indexOf('\\'); i !== -1 && i + 1 < t.length; i = t.indexOf('\\', i)) {
    const n = t[i + 1]!;
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      b.copy(run, i);
      b.push(simple, i, i + 1);
      run = i += 2;
      continue;
    }
    if (n === 'u' && HEX4.test(t.slice(i + 2, i + 6))) {
      b.copy(run, i);
      b.push(String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16)), i, i + 5);
      run = i += 6;
      continue;
    }
    i++;
  }
  b.copy(run, t.length);
  return b.view();
}

function stripSequences(v: DecodedView): DecodedView {
  const b = new Builder(v);
  const t = v.text;
  let run = 0;
  for (let i = t.indexOf('\x1b'); i !== -1; i = t.indexOf('\x1b', i)) {
    SEQUENCE.lastIndex = i;
    const m = SEQUENCE.exec(t);
    if (m) {
      b.copy(run, i);
      run = i += m[0].length;
    } else i++;
  }
  b.copy(run, t.length);
  return b.view();
}

/** HTML's entities for the characters around a value, and URL encoding of ASCII (`%3D`, `%22`). */
const MARKUP = /&(?:quot|apos|amp|lt|gt|#\d{1,3}|#x[0-9a-fA-F]{1,2});|%[0-7][0-9A-Fa-f]/;
const MARKUP_ALL = new RegExp(MARKUP.source, 'g');
const ENTITIES: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };

/**
 * Text from an HTML page or attribute (`{&quot;apiKey&quot;: …}`) or a URL (`password%3D…`) as it
 * reads: each entity or `%XX` one character, mapped to the whole of it.
 */
function decodeMarkup(v: DecodedView): DecodedView {
  const b = new Builder(v);
  const t = v.text;
  let run = 0;
  MARKUP_ALL.lastIndex = 0;
  for (let m = MARKUP_ALL.exec(t); m !== null; m = MARKUP_ALL.exec(t)) {
    const e = m[0];
    const code =
      e[0] === '%'
        ? parseInt(e.slice(1), 16)
        : e[1] === '#'
          ? parseInt(e[2] === 'x' ? e.slice(3, -1) : e.slice(2, -1), e[2] === 'x' ? 16 : 10)
          : ENTITIES[e.slice(1, -1)]!.charCodeAt(0);
    if (code > 0x7f) continue;
    b.copy(run, m.index);
    b.push(String.fromCharCode(code), m.index, m.index + e.length - 1);
    run = m.index + e.length;
  }
  b.copy(run, t.length);
  return b.view();
}

/** A CSV field quoted with a doubled quote in it that is not the field's end (`1,"{""password"": …`). */
const CSV_DOUBLED = /(?:^|[,;\t])"[^"]*""[^\s",;]/m;
/** What may end a CSV field: a separator or the line's end. */
const CSV_FIELD_END = /[,;\t\r\n]/;

/**
 * CSV's quoted fields as a spreadsheet reads them: `1,"{""password"": ""…""}"` holds `{"password": "…"}`,
 * each doubled quote one, mapped to both. A field opens with a quote at a line's start or after a
 * separator, and is one if its closing quote comes before a separator or a line's end (it may hold line
 * breaks), or if it is still open where the text ends (a batch, or the lines holding keywords, end
 * inside it). Linear: a field that is none is not read again from inside it.
 */
function decodeCsvQuotes(v: DecodedView): DecodedView {
  const b = new Builder(v);
  const t = v.text;
  const fieldEnd = (i: number): boolean => i >= t.length || CSV_FIELD_END.test(t[i]!);
  let run = 0;
  const pairs: number[] = [];
  for (let i = t.indexOf('"'); i !== -1;) {
    if (i > 0 && !fieldEnd(i - 1)) {
      i = t.indexOf('"', i + 1);
      continue;
    }
    pairs.length = 0;
    let close = t.indexOf('"', i + 1);
    while (close !== -1 && t[close + 1] === '"') {
      pairs.push(close);
      close = t.indexOf('"', close + 2);
    }
    const field = close === -1 || fieldEnd(close + 1);
    if (field)
      for (const p of pairs) {
        b.copy(run, p);
        b.push('"', p, p + 1);
        run = p + 2;
      }
    if (close === -1) break;
    // A quote that closes no field may open the next one (`,"a"b,"{""k"": …}"`).
    i = !field && fieldEnd(close - 1) ? close : t.indexOf('"', close + 1);
  }
  b.copy(run, t.length);
  return b.view();
}

/**
 * A shell's way to put a `'` inside a single-quoted word: close the quote, add a quoted or escaped `'`,
 * reopen (`'"'"'`, `'\''`). A command inside `sh -c '…'` quotes a value so: `-p'"'"'…'"'"'`.
 */
const REQUOTE = /'(?:"'"|\\')'/;
const REQUOTE_ALL = new RegExp(REQUOTE.source, 'g');

/**
 * Each such `'"'"'` or `'\''` read as the one quote it stands for, so `password='"'"'…'"'"'` reads as
 * `password='…'` to every rule that knows a quoted value; the quote maps to the whole of it.
 */
function collapseRequotes(v: DecodedView): DecodedView {
  const b = new Builder(v);
  const t = v.text;
  let run = 0;
  REQUOTE_ALL.lastIndex = 0;
  for (let m = REQUOTE_ALL.exec(t); m !== null; m = REQUOTE_ALL.exec(t)) {
    b.copy(run, m.index);
    b.push("'", m.index, m.index + m[0].length - 1);
    run = m.index + m[0].length;
  }
  b.copy(run, t.length);
  return b.view();
}

/**
 * Escapes are decoded this many times: JSON in a JSON log's string, inside a log of that log, kept in a
 * session's history (an agent reading another agent's log).
 */
export const DECODE_PASSES = 4;

/** The decoded view of `source`, or undefined when it has no escapes, entities or terminal sequences. */
export function decodedView(source: string): DecodedView | undefined {
  const escaped = ESCAPE.test(source);
  const markup = MARKUP.test(source);
  const requoted = REQUOTE.test(source);
  if (!escaped && !markup && !requoted && !source.includes('\x1b') && !CSV_DOUBLED.test(source)) return undefined;
  const start = new Int32Array(source.length);
  const end = new Int32Array(source.length);
  for (let i = 0; i < source.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  let v: DecodedView = { text: source, start, end };
  if (markup) v = decodeMarkup(v);
  // Before each pass of escapes: `'\''` would read as `'''`, and JSON escapes `'"'"'` as `'\"'\"'`.
  for (let pass = 0; pass < DECODE_PASSES && ESCAPE.test(v.text); pass++) {
    if (REQUOTE.test(v.text)) v = collapseRequotes(v);
    v = decodeEscapes(v);
  }
  if (REQUOTE.test(v.text)) v = collapseRequotes(v);
  if (v.text.includes('\x1b')) v = stripSequences(v);
  if (CSV_DOUBLED.test(v.text)) v = decodeCsvQuotes(v);
  return v;
}

/** How deep strings are read inside strings: a file in JSON, and that JSON inside a JSON log's string. */
const STRING_DEPTH = DECODE_PASSES;
/** What may come before a single-quoted string's opening quote, and after its closing one. */
const OPENS_AFTER = /[\s,:=[({]/;
const CLOSES_BEFORE = /[\s,:;\])}]/;
/** A line's number as `cat -n` or an agent's Read tool print it, as written in a string (`\t`, `→`). */
const NUMBERED_LINE = /^[ \t]*\d{1,7}(?:\\t|\t|\x7f|\u2192)/;
/** The next quote of either kind, or a line's end. */
const QUOTE_OR_BREAK = /["'\n]/g;
/** The next character that ends or escapes a string of either quote. */
const IN_STRING = { '"': /["\\\n]/g, "'": /['\\\n]/g } as const;

/**
 * Gives `use` the content of each quoted string on one line of `source` that holds a line break as the
 * two characters `\n` (a file printed inside JSON or a Python repr), decoded, and of the strings inside
 * that content. In such a view a file's first line starts a line: `{"content": "password: |\n  …"}`
 * gives `password: |` as a line of its own, which rules anchored at a line's start need. With
 * `firstLine`, only the content up to its first break (the other lines start lines in the decoded view
 * already); only strings whose first line as written passes `take`. Linear: a string not closed on its
 * line is given up at the line's end, not tried again from each quote inside it.
 */
export function eachStringView(
  source: string,
  firstLine: boolean,
  use: (view: DecodedView) => void,
  take: (head: string) => boolean = () => true,
): void {
  if (!source.includes('\\n') && !/\d(?:\\t|\t|\x7f|\u2192)/.test(source)) return;
  // `v` undefined: the source itself (offsets are made only for the strings taken).
  const visit = (text: string, v: DecodedView | undefined, depth: number): void => {
    // Strings of one quote are read left to right, a string's quotes of the other kind inside it.
    // Once a quote opens a string that is not closed on its line, no later quote of that kind on the
    // line can close one either (escapes read the same from there): the kind is done until the line ends.
    const doneUntil = { '"': -1, "'": -1 };
    for (let pos = 0; ;) {
      QUOTE_OR_BREAK.lastIndex = pos;
      const q = QUOTE_OR_BREAK.exec(text);
      if (q === null) break;
      const open = q.index;
      pos = open + 1;
      const quote = q[0];
      if (quote === '\n' || open < doneUntil[quote as '"' | "'"]) continue;
      // An apostrophe in a word (`it's`) opens no string: a repr's quote follows a blank or a bracket.
      if (quote === "'" && open > 0 && !OPENS_AFTER.test(text[open - 1]!)) continue;
      const s = readString(text, open, quote as '"' | "'");
      if (s.close === -1) {
        doneUntil[quote as '"' | "'"] = s.end;
        continue;
      }
      // ...and one closing is followed by a blank, a bracket or a separator (`'a\nb', 'c'`).
      if (quote === "'" && s.close + 1 < text.length && !CLOSES_BEFORE.test(text[s.close + 1]!)) continue;
      pos = s.close + 1;
      // One line with its number before it is a file's line too (an agent's Read tool on a one-line file).
      const lineEnd =
        s.firstBreak !== -1 ? s.firstBreak : NUMBERED_LINE.test(text.slice(open + 1, open + 16)) ? s.close : -1;
      if (lineEnd !== -1 && take(text.slice(open + 1, lineEnd)))
        use(decoded(text, v, open + 1, firstLine ? lineEnd : s.close));
      // `\\n` inside: JSON in this string holds strings with line breaks (a JSON log's JSON).
      if (s.nested && depth > 1) {
        const inner = decoded(text, v, open + 1, s.close);
        visit(inner.text, inner, depth - 1);
      }
    }
  };
  visit(source, undefined, STRING_DEPTH);
}

/**
 * The string `quote` opens at `open`: its closing quote (-1 when its line ends first, `end` being that
 * line's end), its first escaped line break and whether it holds an escaped `\\n` (JSON inside it).
 */
function readString(
  text: string,
  open: number,
  quote: '"' | "'",
): { close: number; end: number; firstBreak: number; nested: boolean } {
  const stop = IN_STRING[quote];
  let firstBreak = -1;
  let nested = false;
  for (let at = open + 1; ;) {
    stop.lastIndex = at;
    const m = stop.exec(text);
    if (m === null || m[0] === '\n') return { close: -1, end: m === null ? text.length : m.index, firstBreak, nested };
    if (m[0] !== '\\') return { close: m.index, end: m.index, firstBreak, nested };
    const next = text[m.index + 1];
    if (next === 'n' && firstBreak === -1) firstBreak = m.index;
    else if (next === '\\' && text[m.index + 2] === 'n') nested = true;
    at = m.index + 2;
  }
}

/** Characters [from, to) of `text` decoded once, terminal sequences removed. */
function decoded(text: string, v: DecodedView | undefined, from: number, to: number): DecodedView {
  const out = decodeEscapes(sliceView(text, v, from, to));
  return out.text.includes('\x1b') ? stripSequences(out) : out;
}

/** Characters [from, to) of `text` (of view `v`, or the source itself) as a view of their own. */
function sliceView(text: string, v: DecodedView | undefined, from: number, to: number): DecodedView {
  if (v) return { text: text.slice(from, to), start: v.start.subarray(from, to), end: v.end.subarray(from, to) };
  const start = new Int32Array(to - from);
  const end = new Int32Array(to - from);
  for (let i = 0; i < start.length; i++) {
    start[i] = from + i;
    end[i] = from + i + 1;
  }
  return { text: text.slice(from, to), start, end };
}
