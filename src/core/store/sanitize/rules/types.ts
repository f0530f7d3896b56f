// The shape of a redaction rule, and the small checks rules share against false positives.

/** One secret format: found by a regex, only on lines holding one of its keywords. */
export interface SecretRule {
  /** Shown in the output as `[REDACTED:<id>]` and counted under it. */
  id: string;
  /** The format in words (README list, `context-desk redact --list`). */
  title: string;
  /**
   * Literals, one of which every match contains. Lines without any are never searched with this rule,
   * which is what keeps redaction fast. Lower case = case-insensitive; see `exactKeywords`.
   */
  keywords: readonly string[];
  /** The keywords are case-sensitive (e.g. `AKIA`): fewer ordinary lines become candidates. */
  exactKeywords?: boolean;
  /**
   * Global regex. A named group `secret` marks what is redacted (a key name or URL user around it stays
   * readable); without one the whole match is redacted.
   */
  pattern: RegExp;
  /** Minimum Shannon entropy (bits per character) of the redacted part. */
  entropy?: number;
  /**
   * Extra test of the redacted part (placeholders, shapes); false = not a secret. A quoted value comes
   * without its quotes, with `quoted` true: `"Zx9(Qw)"` is a string, while `Zx9(Qw)` unquoted is code.
   */
  accept?: (secret: string, quoted: boolean) => boolean;
  /** Matches may span lines (PEM blocks): searched in the whole text, not only in keyword lines. */
  multiline?: boolean;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** The value without one pair of surrounding quotes. */
export function unquote(s: string): string {
  const q = s[0];
  return s.length >= 2 && (q === '"' || q === "'" || q === '`') && s[s.length - 1] === q ? s.slice(1, -1) : s;
}

// References and stand-ins that name a secret without holding it: `$VAR`, `${VAR}`, `%VAR%`, `<token>`,
// `{{ secret }}`, a format field (`{password}`, `%(password)s`, `%s`), `***`, `xxxx`, `...`, an already
// redacted value.
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|\$\(.*\)|%[A-Za-z_]\w*%|<[^<>]*>|\{\{.*\}\}|\{[A-Za-z_][\w.-]*\}|%(?:\([\w.-]+\))?s|\[[A-Z_ -]*\]|\*+|x{3,}|X{3,}|\.{3,}|\u2026|\[REDACTED:[^\]]*\].*|(?:your|my|the)[_-][\w-]*|changeme_?placeholder)$/i;
const TYPE_OR_LITERAL =
  /^(?:true|false|null|nil|none|undefined|string|str|number|int|integer|bool|boolean|any|unknown|object|bytes|secret|password|token|required|optional|empty|redacted|hidden|masked|\*\*\*)$/i;

/** True for values that are references, stand-ins or type names rather than secrets. */
export function isPlaceholder(value: string): boolean {
  const v = unquote(value)
    .trim()
    .replace(/[,;.:)]+$/, '');
  // A short number is a size or a count (`MAX_KEY = 64`), not a password.
  return v === '' || PLACEHOLDER.test(v) || TYPE_OR_LITERAL.test(v) || /^(.)\1*$/.test(v) || /^\d{1,5}$/.test(v);
}

/** An unquoted value that reads as code: a call, an index, a member access, a bare identifier. */
export function looksLikeCode(value: string): boolean {
  if (/[()[\]{}]/.test(value)) return true;
  if (/^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)+[,;]?$/.test(value)) return true;
  // `password = pw`, `password = defaultPassword`: a variable. Short, snake_case or camelCase words
  // without digits are names; `password: correcthorse` in a YAML file is not.
  if (!/^[A-Za-z_$][\w$]*[,;]?$/.test(value) || /\d/.test(value)) return false;
  return /[,;]$/.test(value) || value.length < 8 || /_|[a-z][A-Z]/.test(value);
}

/** Has at least one digit and one letter (random tokens nearly always do; words and numbers do not). */
export function hasDigitAndLetter(s: string): boolean {
  return /\d/.test(s) && /[A-Za-z]/.test(s);
}

const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** `process.env.API_KEY`, `config.apiKey`: a member access in code, not a key. */
export const isDottedName = (v: string): boolean => DOTTED_NAME.test(v);

/** A value that stands for itself: not a reference, stand-in, type name, sentence or template. */
export function literalValue(raw: string, quoted = false): boolean {
  const v = unquote(raw);
  if (isPlaceholder(raw) || v.includes('${') || v.includes('{{') || v.includes('[REDACTED:')) return false;
  // Unquoted, a call, an index or a name is code; quoted, a password may hold brackets, but a dotted
  // name (`'contextDesk.setApiKey'`, a command or key path) is still not one.
  if (quoted ? DOTTED_NAME.test(v) : v === raw && looksLikeCode(v)) return false;
  // "Enter your password", "(see the docs)": words, not a secret.
  return !(/^[A-Za-z ,.'"!?:;()\x60-]+$/.test(v) && v.trim().split(/\s+/).length >= 3);
}
