// Text that went through the redaction engine (src/core/store/sanitize), and the only ways to make it.
// The store writer writes a `RedactedText` as it is and redacts any plain string first.
import { sameJsonShape, setOwn } from './sanitize/json-values';
import { redactSecrets } from './sanitize/secrets';
import { SanitizingStream, sanitizeText, type SanitizeOptions, type SanitizeStats } from './sanitize/pipeline';

const MINT = Symbol('redacted');
/** Text that went through the redaction engine. Only this module's helpers can make one. */
export class RedactedText {
  constructor(
    readonly value: string,
    key: symbol,
  ) {
    if (key !== MINT) throw new Error('RedactedText is made by the store writer only');
  }
  toString(): string {
    return this.value;
  }
}
const minted = (text: string): RedactedText => new RedactedText(text, MINT);

/** Redacts secrets in complete text (whole lines). */
export async function redactForStore(text: string): Promise<RedactedText> {
  if (text === '') return minted(text);
  return minted((await redactSecrets(text)).text);
}

/** Every string of a JSON value (keys included) redacted. */
export async function redactJson(value: unknown): Promise<unknown> {
  if (typeof value === 'string') return value === '' ? value : (await redactSecrets(value)).text;
  if (Array.isArray(value)) return Promise.all(value.map(redactJson));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, (await redactJson(k)) as string, await redactJson(v));
    return out;
  }
  return value;
}

/**
 * A JSON value as the store writer writes it: the serialized text redacted as the file it becomes (a string
 * alone loses the key that says it is a secret: a server's schema with `"examples": [{"password": "…"}]`
 * kept the password; the engine reads JSON strings decoded, so a string's `\n`-separated lines are found
 * too). Once: redacting every string first as well doubled the cost. Should a redaction have taken a
 * quote or a comma of the JSON with it (the file would no longer read, or lose a field), every string is
 * redacted alone first, as before, and the text again.
 */
export async function redactJsonForStore(value: unknown, indent = 2): Promise<RedactedText> {
  const text = JSON.stringify(value, null, indent) + '\n';
  const once = await redactForStore(text);
  if (once.value === text || sameJsonShape(text, once.value)) return once;
  return redactForStore(JSON.stringify(await redactJson(value), null, indent) + '\n');
}

/** One-shot sanitizing (binary check, terminal sequences, secrets) for the store. */
export async function sanitizeForStore(
  input: Uint8Array | string,
  options: SanitizeOptions,
): Promise<{ text: RedactedText; stats: SanitizeStats }> {
  const r = await sanitizeText(input, options);
  return { text: minted(r.text), stats: r.stats };
}

/**
 * A streaming sanitizer whose sink receives store-ready text. `after` may only escape or frame the
 * sanitized text (e.g. keep an output line from forging a log marker), never add content.
 */
export function sanitizingStream(
  sink: (text: RedactedText) => Promise<void>,
  options: SanitizeOptions,
  after: (text: string) => string = (t) => t,
): SanitizingStream {
  return new SanitizingStream((text) => sink(minted(after(text))), options);
}
