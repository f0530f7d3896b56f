// Redaction of JSON text by its decoded values (tool-call arguments): an `edit_file` writing a .env
// carries `"content": "A=1\nDB_PASSWORD=..."`, where the secret follows the two characters `\n`.
// Parsed, every string value (and key) is redacted as the text it decodes to, a value under a key that
// names a secret (`"password": "..."`) is redacted whole, and the result is serialised again. JSON too
// deeply nested to walk is redacted as text: a failed walk would lose the record, never leak it.
import { textNestedDeeperThan } from '../../json-depth';
import { PROGRAM_KEY, redactArgvWords } from './argv-words';
import { hasDigitAndLetter, isPlaceholder } from './rules/types';

/**
 * Keys whose string value is a secret whatever it looks like (`secret_value` too: gh's secret set; `pass`
 * as a word of its own: `db_pass`, `SMTP_PASS`, not `bypass`).
 */
const SECRET_KEY =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|auth|(?:^|[_.-])pass)(?:[_-]?value)?$/i;

export const SECRET_FIELD = 'secret-field';

/**
 * Sets `key` as an own property: `out[key] = value` with the key `__proto__` (a property name JSON may
 * hold, say in a hostile server's schema) would set the object's prototype and drop the property.
 */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Redacts `text` as JSON when it parses as an object or array (`redact` on every string; values of
 * secret-named keys replaced whole, counted with `count`), else as text. Unchanged JSON keeps its
 * original formatting. JSON nested deeper than MAX_JSON_DEPTH is redacted as text.
 */
export async function redactJsonText(
  text: string,
  redact: (s: string) => Promise<string>,
  count: (kind: string) => void,
): Promise<string> {
  if (textNestedDeeperThan(text)) return redact(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return redact(text);
  }
  if (value === null || typeof value !== 'object') return redact(text);
  let changed = false;
  const walk = async (v: unknown, key?: string, program?: string): Promise<unknown> => {
    if (typeof v === 'string') {
      let out = await redact(v);
      if (key !== undefined && SECRET_KEY.test(key) && !isPlaceholder(out) && !out.startsWith('[REDACTED:')) {
        out = `[REDACTED:${SECRET_FIELD}]`;
        count(SECRET_FIELD);
      }
      if (out !== v) changed = true;
      return out;
    }
    if (Array.isArray(v)) {
      // A list of words is also read as the command line it makes (argv-words.ts).
      const words = v.every((item) => typeof item === 'string') ? redactArgvWords(v, count, program) : undefined;
      if (words) changed = true;
      const items: unknown[] = [];
      // A `[name, value]` pair (a header, an env entry): the name says what the value is, when the value
      // looks like a key (two words of a list, `["token", "count"]`, are no pair).
      const pairName = v.length === 2 && typeof v[1] === 'string' && looksLikeKey(v[1]) ? v[0] : undefined;
      for (const [i, item] of (words ?? v).entries())
        items.push(await walk(item, i === 1 && typeof pairName === 'string' ? pairName : undefined));
      return items;
    }
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      const entries = Object.entries(v);
      const program = entries.find(([k, item]) => PROGRAM_KEY.test(k) && typeof item === 'string')?.[1] as
        string | undefined;
      // `{"name": "X-Api-Key", "value": "…"}` (a HAR or Postman header, a Kubernetes env entry).
      const named = entries.find(([k, item]) => (k === 'name' || k === 'key') && typeof item === 'string')?.[1] as
        string | undefined;
      for (const [k, item] of entries) {
        const cleanKey = await redact(k);
        if (cleanKey !== k) changed = true;
        setOwn(out, cleanKey, await walk(item, k === 'value' && named !== undefined ? named : k, program));
      }
      return out;
    }
    return v;
  };
  const out = await walk(value);
  return changed ? JSON.stringify(out) : text;
}

/**
 * `after` parses, and as the same tree as `before`: the same arrays and objects with as many items and
 * keys, the same numbers, booleans and nulls; only strings (keys included) may differ. Walked with a
 * stack: a hostile server's schema may be nested deeper than recursion goes.
 */
export function sameJsonShape(before: string, after: string): boolean {
  let b: unknown;
  let a: unknown;
  try {
    b = JSON.parse(before);
    a = JSON.parse(after);
  } catch {
    return false;
  }
  const stack: [unknown, unknown][] = [[b, a]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [x, y] = pair;
    if (typeof x === 'string' && typeof y === 'string') continue;
    if (x === null || typeof x !== 'object' || y === null || typeof y !== 'object') {
      if (x !== y) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const xs = Object.values(x);
    const ys = Object.values(y);
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) stack.push([xs[i], ys[i]]);
  }
  return true;
}

/** A value shaped like a key or password: one word, with a digit and a letter, or long. */
function looksLikeKey(s: string): boolean {
  return !/\s/.test(s) && (hasDigitAndLetter(s) || s.length >= 20);
}
