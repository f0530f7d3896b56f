// A Kubernetes Secret printed as JSON (or as a Python dict, the `kubernetes` client's `to_dict()`): its
// `data` and `stringData` maps are found by one pass over the text's structure, so that the Secret's
// `kind` may come before them (the API server's order: kind, apiVersion, metadata, data, type) or after
// (kubectl's sorted keys), and an item of the API's lists, which carries no kind, counts by its `type`.
// One pass, not a regex per map: a list of 10,000 Secrets costs one reading of the text.

/** An object of the text: a Secret when its `kind` is, or (without a kind) when its `type` is a Secret's. */
export interface JsonObject {
  /** Offset of its `{`. */
  start: number;
  /** Offset of its `}`, or -1 while it is open at the text's end. */
  end: number;
  kind?: string;
  type?: string;
  /** Where the `kind` (or, without one, the `type`) that makes it a Secret was read. */
  decidedAt?: number;
}

/** A `data` or `stringData` map holding only strings. */
export interface SecretMap {
  field: string;
  /** Offset of its key's opening quote. */
  key: number;
  /** Its inside, from after `{` to its `}` (the text's end while it is open). */
  start: number;
  end: number;
  closed: boolean;
  owner: JsonObject;
}

/** The types a Secret has (`kubectl create secret generic|tls|docker-registry`, Helm, tokens). */
const SECRET_TYPE = /^(?:Opaque|kubernetes\.io\/[\w.-]+|bootstrap\.kubernetes\.io\/token|helm\.sh\/release\.v1)$/;

export const isSecretObject = (o: JsonObject): boolean =>
  o.kind === 'Secret' || (o.kind === undefined && o.type !== undefined && SECRET_TYPE.test(o.type));

/** An open object or array; an object is also the `JsonObject` its maps name as their owner. */
interface Frame extends JsonObject {
  array: boolean;
  /** The key whose value comes next (one of NAMES, or OTHER). */
  key: string;
  keyAt: number;
  map?: SecretMap;
  /** A map holding an object or array is no Secret's. */
  nested: boolean;
}

/** Keys and values longer than this are none of the ones read here. */
const MAX_NAME = 64;
/** The keys read here; any other is OTHER (compared in place: most of a JSON text is keys). */
const NAMES = ['kind', 'type', 'data', 'stringData', 'string_data'] as const;
const OTHER = '';
const FIELDS = new Set<string>(['data', 'stringData', 'string_data']);

const blank = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const frame = (start: number, array: boolean): Frame => ({
  start,
  end: -1,
  array,
  key: OTHER,
  keyAt: -1,
  nested: false,
});

/**
 * The `data`/`stringData` maps of a JSON (or Python dict) text, and its objects of `"kind": "Secret"`.
 * Prose around them is skipped; a string ends at its line's end at the latest (JSON has no raw newline
 * in a string; an apostrophe in prose must not swallow the rest of the text).
 */
export function scanJsonSecrets(text: string): { maps: SecretMap[]; secrets: JsonObject[] } {
  const maps: SecretMap[] = [];
  const secrets: JsonObject[] = [];
  // The text's top level is an object that never closes: a piece of a stream starts inside its Secret
  // (held back from `"data": {`, with `"kind": "Secret"` after it), and its keys are read all the same.
  const root = frame(0, false);
  const stack: Frame[] = [root];
  // Open frames of each kind, the root aside.
  let objects = 0;
  let arrays = 0;
  const n = text.length;
  // The last character that was not blank (a newline counts): an apostrophe starts a string only
  // where a value or key can (`{'data': …`), not in a word (`it's`).
  let prev = 10;
  const lines: LineState = { nl: -1, open: [-1, -1] };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) continue;
    const top = stack[stack.length - 1]!;
    // JSON held in a string, as the decoded view shows it (`"{"kind": …}"`): read as JSON, not a string.
    if (c === 34 && jsonInString(text, i)) {
      prev = c;
      continue;
    }
    if (c === 34 || (c === 39 && (prev === 10 || prev === 123 || prev === 91 || prev === 44 || prev === 58))) {
      const j = stringEnd(text, i, lines);
      if (j === -1) {
        prev = c;
        continue;
      }
      let k = j + 1;
      while (k < n && blank(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) === 58 /* : */) {
        top.key = nameAt(text, i + 1, j);
        top.keyAt = i;
        i = k;
        prev = 58;
        continue;
      }
      // The root is a piece of a stream that may end one Secret and start the next: a Secret's kind or
      // type seen there stays (`…"kind":"Secret"},{…}],"kind":"List"` is still that Secret's end).
      if (
        !top.array &&
        (top.key === 'kind' || top.key === 'type') &&
        j - i - 1 <= MAX_NAME &&
        !(top === root && isSecretObject(root))
      ) {
        const value = text.slice(i + 1, j);
        if (top.key === 'type') top.type = value;
        else {
          top.kind = value;
          if (value === 'Secret' && top !== root) secrets.push(top);
        }
        if (isSecretObject(top)) top.decidedAt ??= i;
      }
      top.key = OTHER;
      i = j;
      prev = c;
      continue;
    }
    prev = c;
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const f = frame(i, c === 91);
      if (c === 123) objects++;
      else arrays++;
      if (top.map) top.nested = true;
      else if (c === 123 && !top.array && FIELDS.has(top.key))
        f.map = { field: top.key, key: top.keyAt, start: i + 1, end: n, closed: false, owner: top };
      top.key = OTHER;
      stack.push(f);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      // Closes the innermost frame of its kind; frames left open inside it were not JSON, and a stray
      // bracket (prose) closes nothing. Each frame is walked over once when it goes: linear.
      const array = c === 93;
      if ((array ? arrays : objects) === 0) continue;
      let f = stack.pop()!;
      for (; f.array !== array; f = stack.pop()!) {
        if (f.array) arrays--;
        else objects--;
      }
      if (array) arrays--;
      else objects--;
      f.end = i;
      if (f.map && !f.nested) {
        f.map.end = i;
        f.map.closed = true;
        maps.push(f.map);
      }
    } else if (c === 44 /* , */) top.key = OTHER;
  }
  // Maps still open at the text's end (a stream cut inside one): their inside so far.
  for (const f of stack) if (f.map && !f.nested) maps.push(f.map);
  return { maps, secrets };
}

/** The key between `from` and `to` if it is one of NAMES, else OTHER; without copying it. */
function nameAt(text: string, from: number, to: number): string {
  for (const name of NAMES) if (to - from === name.length && text.startsWith(name, from)) return name;
  return OTHER;
}

/** The next newline, and for each quote (`"`, `'`) the end of a line known to hold no closing one. */
interface LineState {
  nl: number;
  open: [number, number];
}

/**
 * The offset of the quote that closes the string opening at `i`, or -1 if its line ends first. Found
 * with `indexOf` (most of a JSON text is strings). Whether a quote is escaped does not depend on where
 * the string started, so a line found to have no closing quote after one start has none after a later
 * one: remembered, or `"\"\"\"…` without a close was read again from each quote (quadratic).
 */
function stringEnd(text: string, i: number, lines: LineState): number {
  const q = text[i]!;
  const which = q === '"' ? 0 : 1;
  if (lines.nl <= i) lines.nl = text.indexOf('\n', i) >>> 0; // -1 becomes past any offset
  if (lines.open[which] === lines.nl) return -1;
  for (let j = text.indexOf(q, i + 1); j !== -1 && j < lines.nl; j = text.indexOf(q, j + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return j;
  }
  lines.open[which] = lines.nl;
  return -1;
}

/**
 * An object opening right after a quote, with a key (`"{"kind": …`, `"[{"data": …`): JSON held in a
 * string as the decoded view shows it. Not a string as written (`"{\"kind\"`), nor a string that is only
 * a bracket (`"{"`, `["{", "}"]` in a language configuration, `["{", ":"]`: no key starts with `,`).
 */
const JSON_IN_STRING = /"[\s[]*\{\s*"(?!\s*[,\]}])(?:[^"\\\n]|\\.)*"\s*:/y;

/**
 * The same after a tab that ends a first field (`"key\t{"kind": …`: a tab-separated line, a log's
 * columns): a tab, unlike a line break, does not end the string the scan reads.
 */
const JSON_AFTER_TAB = /"[^"\\\n\t{}[\],']{0,256}\t[\s[]*\{\s*"(?!\s*[,\]}])(?:[^"\\\n]|\\.)*"\s*:/y;

export function jsonInString(text: string, i: number): boolean {
  const next = text.charCodeAt(i + 1);
  const json = next === 123 || next === 91 ? JSON_IN_STRING : JSON_AFTER_TAB;
  json.lastIndex = i;
  return json.test(text);
}

/**
 * Just after the last `,` in `[from, to)` that is outside a string, reading strings as the scan does
 * from `from` (where no string is open), or -1. A long line cut inside a string would start the next
 * piece with its quotes read the wrong way round, and its Secret's maps would not be found.
 */
export function lastCommaOutsideStrings(text: string, from: number, to: number): number {
  const lines: LineState = { nl: -1, open: [-1, -1] };
  let last = -1;
  let prev = 10;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) continue;
    if (c === 34 || (c === 39 && (prev === 10 || prev === 123 || prev === 91 || prev === 44 || prev === 58))) {
      const j = jsonInString(text, i) ? -1 : stringEnd(text, i, lines);
      prev = c;
      if (j !== -1) i = j;
      continue;
    }
    prev = c;
    if (c === 44) last = i + 1;
  }
  return last;
}
