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

const SIMPLE: Record<string, string> = {
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
const SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+#%][ -~]|[ -~])/y;

class Builder {
  chars: string[] = [];
  start: number[] = [];
  end: number[] = [];
  push(ch: string, s: number, e: number): void {
    this.chars.push(ch);
    this.start.push(s);
    this.end.push(e);
  }
  view(): DecodedView {
    return { text: this.chars.join(''), start: Int32Array.from(this.start), end: Int32Array.from(this.end) };
  }
}

function decodeEscapes(v: DecodedView): DecodedView {
  const b = new Builder();
  const t = v.text;
  for (let i = 0; i < t.length;) {
    if (t[i] === '\\' && i + 1 < t.length) {
      const n = t[i + 1]!;
      const simple = SIMPLE[n];
      if (simple !== undefined) {
        b.push(simple, v.start[i]!, v.end[i + 1]!);
        i += 2;
        continue;
      }
      if (n === 'u' && HEX4.test(t.slice(i + 2, i + 6))) {
        b.push(String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16)), v.start[i]!, v.end[i + 5]!);
        i += 6;
        continue;
      }
    }
    b.push(t[i]!, v.start[i]!, v.end[i]!);
    i++;
  }
  return b.view();
}

function stripSequences(v: DecodedView): DecodedView {
  const b = new Builder();
  const t = v.text;
  for (let i = 0; i < t.length;) {
    if (t[i] === '\x1b') {
      SEQUENCE.lastIndex = i;
      const m = SEQUENCE.exec(t);
      if (m) {
        i += m[0].length;
        continue;
      }
    }
    b.push(t[i]!, v.start[i]!, v.end[i]!);
    i++;
  }
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
