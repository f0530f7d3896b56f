// The shape of a redaction rule, and the small checks rules share against false positives.
import { trimTrailing } from '../../../trim';

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
  /**
   * The parts of the text where a match counts (`[start, end)`, in order): a structure a regex cannot
   * follow in linear time, such as a YAML block's nesting. Only with `multiline` (it sees the whole text).
   */
  within?: (text: string) => ReadonlyArray<readonly [number, number]>;
  /** Searched only in the text as written, not also with its escapes decoded (see decoded-view.ts). */
  asWrittenOnly?: boolean;
  /**
   * A multi-line match that reads a file's consecutive lines (a key, then its value on the next line):
   * also searched without tools' line prefixes (grep's `path:12:`, see line-prefixes.ts). Implied by a
   * pattern anchored at a line's start (`^` with the `m` flag).
   */
  fileLines?: boolean;
}

/**
 * YAML's tags that keep the value as written (`password: !!str 0123`, `!!binary <base64>`): not it, and
 * never taken for it (`password: !!binary |` is a block, whose lines are the value).
 */
export const YAML_TAG = String.raw`(?:!!(?:str|binary)[ \t]+|(?!!!(?:str|binary)\b))`;

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

/**
 * A value a shell quotes inside single quotes: `'"'"'` closes the quote, adds a quoted `'` and reopens it
 * (`sh -c 'export TOKEN='"'"'…'"'"''`), also with its double quotes escaped in JSON (`'\"'\"'`).
 */
const REQUOTE = String.raw`'\\?"'\\?"'`;
export const SHELL_REQUOTED = String.raw`${REQUOTE}[^'\n]{1,512}${REQUOTE}`;
const REQUOTED_VALUE = new RegExp(String.raw`^(${REQUOTE})([^'\n]*)(${REQUOTE})$`);

/** How long a shell's `'"'"'` is either side of `s` (`[0, 0]` when not both). */
export function requotedWidths(s: string): [number, number] {
  const m = REQUOTED_VALUE.exec(s);
  return m ? [m[1]!.length, m[3]!.length] : [0, 0];
}

/** The value without one pair of surrounding quotes (or a shell's `'"'"'` either side). */
export function unquote(s: string): string {
  const [open, close] = requotedWidths(s);
  if (open > 0) return s.slice(open, s.length - close);
  const q = s[0];
  return s.length >= 2 && (q === '"' || q === "'" || q === '`') && s[s.length - 1] === q ? s.slice(1, -1) : s;
}

// References and stand-ins that name a secret without holding it: `$VAR`, `${VAR}`, `%VAR%`, `<token>`,
// `{{ secret }}`, a format field (`{password}`, `{attrs[2]}`, `{pw!r}`, `%(password)s`, `%s`), `***`,
// `xxxx`, `...`, an already redacted value, a value shown masked (`gho_****…`, `****ABCD`), a YAML tag
// that fetches the value (CloudFormation's `!Ref`, Ansible's `!vault`, Home Assistant's `!secret`), a
// word in parentheses a tool prints instead of the value (`npm config list`'s `(protected)`, Terraform's
// `(sensitive value)`; its `)` may already be trimmed as punctuation).
const PLACEHOLDER =
  /^(?:\((?:protected|sensitive(?: value)?|hidden|masked|redacted|secret|encrypted|not set|unset)\)?|\$\{?[A-Za-z_][\w.]*\}?|\$\(.*\)|%[A-Za-z_]\w*%|<[^<>]*>|\{\{.*\}\}|\{[A-Za-z_][\w.-]*(?:\[[\w'"-]*\])*(?:![rsa])?\}|%(?:\([\w.-]+\))?s|\[[A-Z_ -]*\]|\*+|[\w-]{0,12}\*{4,}\w{0,6}|!(?:Ref|Sub|GetAtt|ImportValue|FindInMap|Join|Select|Base64|vault|secret|env|include)|x{3,}|X{3,}|\.{3,}|\u2026|\[REDACTED:[^\]]*\].*|(?:your|my|the)[_-][\w-]*|changeme_?placeholder)$/i;
const TYPE_OR_LITERAL =
  /^(?:true|false|null|nil|none|undefined|string|str|number|int|integer|bool|boolean|any|unknown|object|bytes|secret|password|token|value|required|optional|empty|redacted|hidden|masked|function|class|lambda|\*\*\*)$/i;

/** True for values that are references, stand-ins or type names rather than secrets. */
export function isPlaceholder(value: string): boolean {
  const v = trimTrailing(unquote(value).trim(), ',;.:)');
  // Only quotes and escapes: a shell's `'"'"'` closing and reopening a quote (`SECRET_KEY='"'"'x'"'"'` in JSON).
  if (/^[\\"'\x60]+$/.test(v)) return true;
  // A short number is a size or a count (`MAX_KEY = 64`), not a password.
  return v === '' || PLACEHOLDER.test(v) || TYPE_OR_LITERAL.test(v) || /^(.)\1*$/.test(v) || /^\d{1,5}$/.test(v);
}

/** An unquoted value that reads as code: a call, an index, a generic type, a member access, a bare identifier. */
export function looksLikeCode(value: string): boolean {
  // A generic type too: `z.ZodOptional<z.ZodString>;`, `Promise<string>`, `z.ZodOptional<z.ZodUnion<readonly`.
  return /[()[\]{}]/.test(value) || GENERIC_TYPE.test(value) || looksLikeName(value) || looksLikeTypeName(value);
}

// The words a type's name ends in (`Uint8Array`, `JWTPayload`, `OAuth2Token`, `SHA256Hash`, `PBKDF2Params`).
const TYPE_END =
  /(?:Array|Buffer|View|Token|Hash|Params|Element|Entity|Credentials?|Payload|Key|Pair|String|Type|Options|Config|Info|Data|Result|Response|Request|Provider|Client|Map|Set|List|Record|Promise|Object|Handle|Store|Secret|Password)$/;

/**
 * A type in a TypeScript annotation (`secretKey: Uint8Array;`, `token: CSSToken`): capitalised words
 * and acronyms ending in a word types end in, digits only inside (`Uint8`, `SHA256`). A random
 * password has a lone lower-case letter between capitals (`Xk95RG5OOy`) or ends in digits.
 */
export function looksLikeTypeName(value: string): boolean {
  const v = value.replace(/(?:\[\])?[;,]?$/, '');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(v) || !TYPE_END.test(v)) return false;
  // Words: an acronym (`JWT`, `SHA`), a capitalised word (`Payload`, `Id`), a number.
  const words = v.match(/[A-Z]+(?![a-z])|[A-Z][a-z]+|\d+|[a-z]+/g) ?? [];
  return words.join('') === v && words.every((w) => !/^[A-Z][a-z]$/.test(w) || /^(?:Id|Io|Ui|Db|Os)$/.test(w));
}

const GENERIC_TYPE = /^(?:[A-Za-z_$][\w$.]*<[\w$.<>, |[\]]*>[;,]?|[A-Za-z_$][\w$]*\.[\w$.]*(?:<[\w$.]+)+)$/;

/**
 * A dotted value that is not a member access: a token with a random part (Vault's legacy
 * `s.Qf1s5zigZ4hHkN8yyIkbBk12`: 16 or more characters, both cases, and three or more digits or a digit
 * and random casing), or a password of capitalised words ending in a number (`Winter.Is.Coming7`,
 * `Company.Admin1`). `oauth2Token`, `Sha256` and `config.apiKey` stay names.
 */
function dottedSecret(value: string): boolean {
  if (/^[A-Z][a-z]+(?:\.[A-Z][a-z]*)*\.[A-Z][a-z]*\d+$/.test(value)) return true;
  return value.split('.').some((p) => {
    if (p.length < 16 || !/[A-Z]/.test(p) || !/[a-z]/.test(p)) return false;
    const digits = p.match(/\d/g)?.length ?? 0;
    // One in four of Vault's 24 random characters has fewer than three digits (`s.Z2yJspVPbWS4ZVMVdKKJaMmv`).
    return digits >= 3 || (digits >= 1 && randomCasing(p));
  });
}

/**
 * A lower-case letter alone between capitals (`VPbWS`) that is no two-letter word of a name (`userIdToken`,
 * `getUiState`): camelCase words have two or more.
 */
function randomCasing(word: string): boolean {
  return (word.match(/[A-Z][a-z](?=[A-Z])/g) ?? []).some(
    (pair) => !/^(?:Id|Io|Ui|Db|Os|Is|On|To|Of|By|At|As|In|Or|No)$/.test(pair),
  );
}

/**
 * A name, quoted or not: a member access (`config.apiKey`, `a::b`), or a word without digits that is
 * short, snake_case or camelCase (`pw`, `defaultPassword`, `'challengePassword'`, `'Bearer'`);
 * `correcthorse` and `URgeVVHReSqwqTqJ` are not.
 */
export function looksLikeName(value: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)+[,;]?$/.test(value)) return !dottedSecret(value);
  if (!/^[A-Za-z_$][\w$]*[,;]?$/.test(value) || /\d/.test(value)) return false;
  // camelCase is words: one lower-case letter alone between capitals (`URgeVVHReSq`) is random.
  return (
    /[,;]$/.test(value) ||
    value.length < 8 ||
    /_/.test(value) ||
    (/[a-z][A-Z]/.test(value) && !/[A-Z][a-z][A-Z]/.test(value))
  );
}

/**
 * Text that is a pattern or a template, not a value: a regex (`[0-9A-Fa-f]{1,4}`, `[^\W\d]\w*`, `(?:`) or
 * only format fields and punctuation (`{0}:{1}`, `%s:%s`); a colour (`#d8dee9`, a style's `Token:`).
 */
export function looksLikePattern(v: string): boolean {
  if (/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(v)) return true; // a colour
  // Two signs of a regex, so one `\d` in a password does not make it one.
  const signs = v.match(/\[[^\]]*\w-\w[^\]]*\]|\[\^|\{\d+(?:,\d*)?\}|\\[dwsbDWS]|\(\?[:=!<]/g)?.length ?? 0;
  if (signs >= 2 || /^\(\?[:=!<]/.test(v)) return true;
  return /\{[\w.]*\}|%[sd]/.test(v) && !/[A-Za-z0-9]/.test(v.replace(/\{[\w.]*\}|%[sd]/g, ''));
}

/** Has at least one digit and one letter (random tokens nearly always do; words and numbers do not). */
export function hasDigitAndLetter(s: string): boolean {
  return /\d/.test(s) && /[A-Za-z]/.test(s);
}

const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** `process.env.API_KEY`, `config.apiKey`: a member access in code, not a key. */
export const isDottedName = (v: string): boolean => DOTTED_NAME.test(v);

/**
 * A prerelease's or build's dot-separated tags as versions are tagged: numbers, lower-case words
 * (`rc.1`, `beta2`, `next`), a commit (`5114f85`), Maven's `SNAPSHOT`, `M3`, `RC1`. Mixed case is a
 * password's (`4-DCJ.XVWG44`, `2+bzA9kHP.jPpv4`), not a version's.
 */
const TAG = String.raw`(?:[0-9a-z-]+|SNAPSHOT|RELEASE|FINAL|Final|GA|(?:RC|CR|M|ALPHA|BETA)\d*)`;
const TAGS = String.raw`(?=[0-9A-Za-z.-]{1,24}(?![0-9A-Za-z.-]))${TAG}(?:\.${TAG})*`;
const VERSION = String.raw`v?\d+(?:\.(?:\d+|[xX*])){0,3}(?:-${TAGS})?(?:\+${TAGS})?`;
// npm's `^ ~ >= <`, Ruby's `~>`, Python's `== != ~=`; ranges joined by blanks, `||`, ` - ` or commas.
const COMPARATOR = String.raw`(?:(?:[~^]|~>|[<>]=?|==?|!=|~=) *)?${VERSION}`;
const VERSION_RANGE = new RegExp(String.raw`^${COMPARATOR}(?:(?: +| *(?:\|\||,) *| - )${COMPARATOR})*$`);

/**
 * A dependency's version as package manifests and lock files give it, under a package named for a
 * secret (`"@octokit/auth-token": "^4.0.0"`, `"oauth-token": "workspace:*"`): a range of versions, a
 * prerelease, or another package or workspace to use.
 */
function versionSpec(v: string): boolean {
  // A bare number is a version only with a comparator (`>=10`); `123456` may be a PIN.
  if (VERSION_RANGE.test(v) && /[.~^<>=]/.test(v)) return true;
  return /^(?:workspace|catalog|npm|link|portal):[\w@/.*^~-]*$/.test(v);
}

/** A value that stands for itself: not a reference, stand-in, type name, sentence or template. */
export function literalValue(raw: string, quoted = false): boolean {
  const v = unquote(raw);
  if (isPlaceholder(raw) || v.includes('${') || v.includes('{{') || v.includes('[REDACTED:')) return false;
  // Unquoted, a call, an index or a name is code; quoted, a password may hold brackets, but a name
  // (`'contextDesk.setApiKey'`, `'challengePassword'`) is still not one, nor a regex or a format.
  if (quoted ? looksLikeName(v) : v === raw && looksLikeCode(v)) return false;
  if (looksLikePattern(v)) return false;
  // A version or an OID (`1.3.6.1.5.5.7.3.1`, `2.10.4`): numbers, not a secret.
  if (/^\d+(?:\.\d+)+$/.test(v) || versionSpec(v)) return false;
  // A path (`SIGNIN_TOKEN = "/oauth2/v2.0/token"`): a route or a file, not a secret.
  if (/^\/[\w.-]+(?:\/[\w.-]*)+$/.test(v)) return false;
  // "Enter your password", "(see the docs)": words, not a secret. A passphrase of plain lowercase words
  // ("correct horse battery staple") is one, unless a word of prose is among them.
  const words = v.trim().split(/\s+/);
  if (!/^[A-Za-z ,.'"!?:;()\x60-]+$/.test(v) || words.length < 3) return true;
  return words.every((w) => /^[a-z]+$/.test(w)) && !words.some((w) => PROSE_WORDS.has(w));
}

/** Words that make a run of lowercase words read as prose (a label, a hint, a message), not a passphrase. */
const PROSE_WORDS = new Set(
  (
    'a an the your my our their this that these those to of for from in on at by with without and or but ' +
    'not no is are was were be been must should will can may please enter type here there see use set ' +
    'if it its you we they when where how what which'
  ).split(' '),
);

/** The secret words a setting's or element's name ends in (`<maxTokens>` does not: it is a number). */
export const SECRET_NAME_END = String.raw`(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)`;

/** A string in double or single quotes with backslash escapes inside (`"ab\"cd"`, `'it\'s'`). */
export const QUOTED = String.raw`${SHELL_REQUOTED}|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;

/** Secret words as keys in code and config spell them (keywords, case-insensitive). Bare `pass`/`key`/`auth` are too common. */
export const SECRET_KEY_WORDS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'api_key',
  'apikey',
  'api-key',
  'access_key',
  'accesskey',
  'access-key',
  'private_key',
  'privatekey',
  'private-key',
  'credential',
];

/** The same, and the short words after a separator (`DB_PWD`, `smtp.pass`): keywords of rules that read key names. */
export const SECRET_NAME_KEYWORDS: readonly string[] = [
  ...SECRET_KEY_WORDS,
  '_pwd',
  '.pwd',
  '-pwd',
  '_pass',
  '.pass',
  '-pass',
  'sshpass',
];
