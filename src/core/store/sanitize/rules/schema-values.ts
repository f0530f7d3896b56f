// The values a secret-named key's object holds, wherever its fields sit: an MCP tool's input schema
// (`"api_key": {"type": "string", "examples": ["…"]}`) or an OpenAPI parameter (`"example": "…"`) is
// written to the MCP folder, and its `examples` and `enum` lists, or a `default` after more fields than
// one pattern can skip, kept the secret in clear. The object is read field by field, strings aware, so
// a nested object or a `]` in a description does not end it early.
import { pairValue, SECRET_KEY_NAME } from './named-values';
import { SECRET_NAME_KEYWORDS, type SecretRule } from './types';

/** The fields of such an object whose string, or list of strings, is the secret's value. */
const VALUE_KEYS = new Set(['value', 'default', 'defaultvalue', 'const', 'example', 'examples', 'enum']);

/** How far one object's own fields are read: a schema property is small. */
const MAX_OBJECT = 4096;

const SECRET_OBJECT = new RegExp(String.raw`"${SECRET_KEY_NAME}"\s*:\s*\{`, 'gi');

/** The end of the string opening at `i` (its closing quote's index + 1), or -1 if it does not close. */
function stringEnd(text: string, i: number, stop: number): number {
  for (let j = i + 1; j < stop; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) j++;
    else if (c === 34) return j + 1;
    else if (c === 10) return -1;
  }
  return -1;
}

/**
 * For each `{` and `[` outside strings, the index just past its closer (0: none). One pass over the text,
 * so reading nested secret-named objects, each skipping the ones inside it, stays linear.
 */
function closers(text: string): Int32Array {
  const close = new Int32Array(text.length);
  const open: number[] = [];
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      const e = stringEnd(text, j, text.length);
      // An unclosed quote ends at its line's end, as a string of JSON cannot run past it.
      if (e === -1) {
        const nl = text.indexOf('\n', j);
        j = nl === -1 ? text.length : nl;
      } else j = e - 1;
    } else if (c === '{' || c === '[') open.push(j);
    else if (c === '}' || c === ']') {
      const top = open.at(-1);
      if (top !== undefined && text[top] === (c === '}' ? '{' : '[')) close[open.pop()!] = j + 1;
    }
  }
  return close;
}

const skipSpace = (text: string, i: number, stop: number): number => {
  while (i < stop && /\s/.test(text[i]!)) i++;
  return i;
};

/** Each string directly in the list opening at `i` (with its quotes), nested lists and objects skipped. */
function listStrings(text: string, close: Int32Array, i: number, stop: number, out: Array<[number, number]>): void {
  for (let j = i + 1; j < stop; j++) {
    const c = text[j];
    if (c === ']') return;
    if (c === '"') {
      const e = stringEnd(text, j, stop);
      if (e === -1) return;
      out.push([j, e]);
      j = e - 1;
    } else if (c === '{' || c === '[') {
      if (close[j] === 0) return;
      j = close[j]! - 1;
    }
  }
}

/** The value strings of every secret-named object's own value fields. */
export function secretObjectValues(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let close: Int32Array | undefined;
  SECRET_OBJECT.lastIndex = 0;
  for (let m = SECRET_OBJECT.exec(text); m !== null; m = SECRET_OBJECT.exec(text)) {
    close ??= closers(text);
    const stop = Math.min(text.length, m.index + m[0].length + MAX_OBJECT);
    // Field by field at the object's own level: a key, `:`, a value; `,` between; `}` ends it.
    for (let j = skipSpace(text, m.index + m[0].length, stop); j < stop && text[j] === '"';) {
      const keyEnd = stringEnd(text, j, stop);
      if (keyEnd === -1) break;
      const key = text.slice(j + 1, keyEnd - 1).toLowerCase();
      let v = skipSpace(text, keyEnd, stop);
      if (text[v] !== ':') break;
      v = skipSpace(text, v + 1, stop);
      let end: number;
      if (text[v] === '"') {
        end = stringEnd(text, v, stop);
        if (end !== -1 && VALUE_KEYS.has(key)) out.push([v, end]);
      } else if (text[v] === '[' || text[v] === '{') {
        end = close[v] === 0 || close[v]! > stop ? -1 : close[v]!;
        if (text[v] === '[' && VALUE_KEYS.has(key)) listStrings(text, close, v, end === -1 ? stop : end, out);
      } else {
        end = v;
        while (end < stop && !/[,}\s]/.test(text[end]!)) end++;
      }
      if (end === -1) break;
      j = skipSpace(text, end, stop);
      if (text[j] !== ',') break;
      j = skipSpace(text, j + 1, stop);
    }
    SECRET_OBJECT.lastIndex = m.index + m[0].length;
  }
  out.sort((a, b) => a[0] - b[0]);
  return out;
}

export const SCHEMA_VALUE_RULES: readonly SecretRule[] = [
  {
    id: 'named-secret',
    title:
      'Values in a secret-named object, any field order: schema examples, enum, example, default ("api_key": {"examples": ["…"]})',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    within: secretObjectValues,
    // A JSON string where a value stands (after `:`, `[` or `,`), so the search keeps in step with the quotes.
    pattern: /(?<=[[,:]\s*)"(?<secret>(?:[^"\\\n]|\\.)+)"(?=\s*[,\]}])/g,
    accept: pairValue,
  },
];
