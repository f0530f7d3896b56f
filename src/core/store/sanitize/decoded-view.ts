// Text as a reader decodes it, with the way back to the source. Inside JSON or a quoted string a line
// break before a token is the two characters `\n`: the `n` glues onto the token and no word boundary is
// left. Rules therefore also run on this view, where escapes are decoded (twice, for JSON inside JSON)
// and terminal sequences (also `\u001b[...m` ones) removed, and matches map back to source ranges that
// cover whole escape sequences, so redacting them keeps JSON valid.

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
    return { text: this.parts.join(''), start: this.start.slice(0, this.n), end: this.end.slice(0, this.n) };
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

/** The decoded view of `source`, or undefined when it has no escapes and no terminal sequences. */
export function decodedView(source: string): DecodedView | undefined {
  const escaped = ESCAPE.test(source);
  if (!escaped && !source.includes('\x1b')) return undefined;
  const start = new Int32Array(source.length);
  const end = new Int32Array(source.length);
  for (let i = 0; i < source.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  let v: DecodedView = { text: source, start, end };
  for (let pass = 0; pass < 2 && ESCAPE.test(v.text); pass++) v = decodeEscapes(v);
  if (v.text.includes('\x1b')) v = stripSequences(v);
  return v;
}
