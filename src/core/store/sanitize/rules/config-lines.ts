// A secret-named key at the start of a config line (.env, YAML, .properties, INI, Dockerfile ENV, a
// compose list) owns the rest of the line, so a password holding `, ; ) } ] & | '`, where the
// code-shaped rules stop, is redacted whole. So does `"KEY=value"` quoted whole (docker -e, a compose or
// `docker inspect` list) up to its closing quote.
import {
  hasDigitAndLetter,
  isPlaceholder,
  literalValue,
  looksLikeCode,
  looksLikeName,
  SECRET_NAME_KEYWORDS,
  YAML_TAG,
  type SecretRule,
} from './types';
import { trimTrailing } from '../../../trim';

/** Upper-case keys (`DB_PASSWORD`, `SECRET_KEY_BASE`, `SMTP_PASS`): named env-secret, like the assignment rule. */
export const ENV_KEY = String.raw`(?:(?:[A-Z0-9_.-]*[_.-])?(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIALS?|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)(?:_BASE)?|[A-Z0-9_.-]*_(?:PWD|PASS)|SSHPASS)`;

/** A secret word in the case styles keys are written in (`password`, `dbPassword`, `db.password`, `apiKey`). */
const WORD = String.raw`(?:[Pp]ass(?:word|wd|phrase)|[Ss]ecret(?:[_-]?[Kk]ey)?|[Tt]oken|[Aa]pi[_-]?[Kk]ey|[Aa]ccess[_-]?[Kk]ey|[Pp]rivate[_-]?[Kk]ey|[Cc]redentials?)(?:[_-]?[Bb]ase)?`;

/** A key ending in a secret word: at its start, after `_ . -`, or at a camelCase hump (not `tiktoken`). */
export const KEY = String.raw`(?:(?:[\w.-]*[_.-]|[A-Za-z0-9]*[a-z0-9](?=[A-Z]))?${WORD}|[\w.-]*[_.-](?:pwd|pass))`;

/** The same with a dot in it (`spring.datasource.password`, `smtp.pass`): a .properties or YAML path, not a form field. */
const DOTTED_KEY = String.raw`(?:[\w.-]*\.(?:[\w-]*[_-]|[A-Za-z0-9]*[a-z0-9](?=[A-Z]))?${WORD}|[\w.-]*\.(?:[\w-]*[_-])?(?:pwd|pass))`;

/** What may come before the key: `export`, `set`, Dockerfile's `ENV`/`ARG`, a YAML list's dash. */
const PREFIX = String.raw`[ \t]*(?:(?:export|set|ENV|ARG|-)[ \t]+)?`;

/**
 * A line start (also of a line decoded from JSON), or the start of a string (a quoted `-e` value). Not
 * an attribute in code (`self.token = nextchar`): config keys are not set on `self` or `this`.
 */
const LINE_START = String.raw`^${PREFIX}(?!(?:self|this|cls)\.)`;
const STRING_START = String.raw`(?<=(?<open>["'\x60]))${PREFIX}`;

/** `=`, `:=`, `?=` (Makefiles). */
const ASSIGN_EQ = String.raw`[ \t]*(?::=|\?=|=)[ \t]*`;

/** The same without blanks, as in a form body (`password=…&client_id=…`), and with them (INI, TOML). */
const ASSIGN_EQ_TIGHT = String.raw`(?::=|\?=|=)`;
const ASSIGN_EQ_SPACED = String.raw`(?:[ \t]+(?::=|\?=|=)[ \t]*|(?::=|\?=|=)[ \t]+)`;

/** A colon before a blank (YAML): its scalar is the whole rest of the line. */
const ASSIGN_COLON = String.raw`[ \t]*:[ \t]+${YAML_TAG}`;

/** The closing quote of the JSON string a decoded line was in: a quote before `, } ] :` or the line's end. */
const STRING_END = String.raw`"[ \t]*(?:[,}\]:]|$)`;

/**
 * One run without blanks to the end of the line (a ` #` comment may follow) or to STRING_END (a password
 * holding such a quote loses what follows it). With `stopAtLists` (a form body's field or a connection
 * string's part may follow: `…&grant_type=…`, `…;Server=…`, the other rules cut those) it stops before
 * `&name=` and `;name=`; otherwise it goes on (`password: a&b=c`). A comma never stops it (`a,mw=C4`).
 * Inside a string as written, an escaped line break (`\n`, `\r`) ends the line, so a `.env` read into a
 * JSON string keeps its other lines (an escaped backslash before an `n` does not). Values that start
 * quoted are the other rules' work.
 */
function rest(inString: boolean, stopAtLists: boolean): string {
  const lists = stopAtLists ? '&;' : '';
  const escape = inString ? String.raw`|\\[^nr]` : '';
  // Inside a string, its own closing quote before a blank or a bracket ends the value (`-var 'k=v'`).
  const close = String.raw`\k<open>(?:[\s,;)\]}:]|$)`;
  const plain = `${inString ? `(?!${close})` : ''}[^\\s"${lists}${inString ? '\\\\' : ''}]`;
  const first = `(?:[^\\s"'\\x60&;,${inString ? '\\\\' : ''}]${escape})`;
  const list = lists === '' ? '' : String.raw`|[${lists}](?![\w.-]+=)`;
  const lineEnd = String.raw`[ \t\r]*(?:[ \t]#[^\n]*)?$|${STRING_END}`;
  const end = inString ? String.raw`\\[nr]|${close}|` : '';
  return String.raw`(?<secret>${first}(?:${plain}${escape}${list}|(?!${STRING_END})")*)(?=${end}${lineEnd})`;
}

/** Code, not a value: a keyword or a literal structure first. */
const CODE_START = /^(?:(?:new|await|yield|typeof|lambda|function|async|not)\b|[{[(])/;

/** A (dotted) name and the bracket of a call, index or type argument: `f(`, `a.b[`, `z.Opt<`. */
const NAME_THEN_BRACKET = /^(?<name>[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)(?:\?\.)?(?<bracket>[([<])/;

function balanced(v: string): boolean {
  const count = (c: string): number => v.split(c).length - 1;
  return count('(') === count(')') && count('[') === count(']') && count('{') === count('}');
}

/**
 * Code, not a password: a call, index or generic type (`getPassword()`, `kwargs['pw']`,
 * `parser.get(` left open, `z.ZodOptional<z.ZodString>;`), a call or index with a string argument
 * anywhere (`.rstrip('`, `["key"]`), or a name closing an enclosing call (`request.key):`). A call ends
 * with its closing bracket: `aS(26)4g:Ku` and `Ae(uO&Ce` are passwords.
 */
function looksLikeCodeLine(v: string): boolean {
  const m = NAME_THEN_BRACKET.exec(v);
  if (m) {
    const name = m.groups!.name!;
    const longName = name.length >= 4 || /[._]/.test(name);
    // `f(x)`, `a.b[0];` close at the end; `obj.call(arg,` goes on to the next line.
    const call = balanced(v) ? /[)\]][;,:]?$/.test(v) : longName && /[,([]$/.test(v);
    // A type ends as one: `z.ZodOptional<z.ZodString>;`, `Map<K,V>[]` (not `a_<aa>aaaa]a2`).
    if (m.groups!.bracket === '<' ? longName && endsLikeType(v) : call) return true;
  }
  if (/[[(]["']/.test(v) || /[([{]$/.test(v)) return true;
  return looksLikeName(trimTrailing(v, ')]},;:'));
}

/** `…>`, `…>[];`, `…>?,`: the end of a generic type (`>(?:\[\])*[?;,)]*$`, without a regex tried at every `>`). */
function endsLikeType(v: string): boolean {
  let end = trimTrailing(v, '?;,)').length;
  while (end >= 2 && v[end - 1] === ']' && v[end - 2] === '[') end -= 2;
  return v[end - 1] === '>';
}

/** The rest of a config line that holds a secret: not a reference, stand-in, name, expression or sentence. */
export function lineValue(v: string): boolean {
  if (v.length < 4 || !literalValue(v, true) || CODE_START.test(v)) return false;
  if (looksLikeCodeLine(v)) return false;
  // Without brackets, names still read as code (`pw`, `defaultPassword`, `API_KEY`, `a.b.c`).
  return /[()[\]{}]/.test(v) || !looksLikeCode(v);
}

const ENV_LINE = {
  id: 'env-secret',
  title: 'Secret-named upper-case keys at a line start: the rest of the line (.env, Dockerfile ENV, compose lists)',
  keywords: SECRET_NAME_KEYWORDS,
  accept: lineValue,
};
const CODE_LINE = {
  id: 'code-secret',
  title: 'Secret-named keys at a line start: the rest of the line (YAML, .properties, INI, TOML without quotes)',
  keywords: SECRET_NAME_KEYWORDS,
  accept: lineValue,
};

/**
 * The rules for a key at a line's start and at a string's start, after `=` and after a YAML colon. A
 * plain key's value after `=` without blanks may be a form body's field (`password=…&client_id=…`): it
 * stops before the next field. An env or dotted key's value, one after ` = ` and a YAML scalar are the
 * whole rest of the line (`DB_PASSWORD=ab&cd=ef`, `smtp_pass = ab&cd=ef`).
 */
function lineRules(key: string, base: Omit<SecretRule, 'pattern'>, formFields: boolean): SecretRule[] {
  const assigns: Array<[sign: string, stopAtLists: boolean]> = formFields
    ? [
        [ASSIGN_EQ_TIGHT, true],
        [ASSIGN_EQ_SPACED, false],
        [ASSIGN_COLON, false],
      ]
    : [
        [ASSIGN_EQ, false],
        [ASSIGN_COLON, false],
      ];
  return [LINE_START, STRING_START].flatMap((start) =>
    assigns.map(([sign, stopAtLists]) => ({
      ...base,
      pattern: new RegExp(
        // A value that repeats its key (`credentials = credentials`) is a variable, not a secret.
        `${start}(?<key>${key})${sign}(?!\\k<key>(?!\\S))${rest(start === STRING_START, stopAtLists)}`,
        'gm',
      ),
    })),
  );
}

export const CONFIG_LINE_RULES: readonly SecretRule[] = [
  ...lineRules(ENV_KEY, ENV_LINE, false),
  ...[String.raw`^[ \t]*`, String.raw`(?<=(?<open>["'\x60]))[ \t]*`].map((start, i) => ({
    ...ENV_LINE,
    title: "A Dockerfile's ENV in its older form, without `=` (ENV DB_PASSWORD value): the rest of the line",
    pattern: new RegExp(`${start}ENV[ \\t]+(?<key>${ENV_KEY})[ \\t]+(?![=\\s])${rest(i === 1, false)}`, 'gm'),
  })),
  {
    ...ENV_LINE,
    title: "A Dockerfile's ENV in its older form inside a line (after a blank, a tab or a `|`): one word",
    pattern: new RegExp(
      `(?<=[\\s|;(])ENV[ \\t]+${ENV_KEY}[ \\t]+(?![=\\s])(?<secret>[^\\s"'\x60\\\\]{4,})(?=[\\s"'\\\\]|$)`,
      'gm',
    ),
    // Inside a line it may be prose (`set the ENV API_KEY variable`): only a value with a digit and a letter.
    accept: (v: string) => lineValue(v) && hasDigitAndLetter(v),
  },
  {
    ...ENV_LINE,
    // A shell's `export` (or cmd's `set`) assigns the word as written: a name there is the password itself
    // (`export DB_PASSWORD=hunter`), where `API_TOKEN=token` in code would read a variable.
    title: 'A secret-named variable exported by a shell (export DB_PASSWORD=word): the word, even a plain one',
    pattern: new RegExp(
      String.raw`^[ \t]*(?:export|set)[ \t]+${ENV_KEY}=(?<secret>[^\s$%"'\x60\\]{3,})(?=[ \t]*(?:[ \t]#[^\n]*)?$)`,
      'gm',
    ),
    accept: (v: string) => !isPlaceholder(v),
  },
  ...lineRules(DOTTED_KEY, CODE_LINE, false),
  ...lineRules(KEY, CODE_LINE, true),
  {
    id: 'env-secret',
    title: 'A quoted secret-named assignment: up to its closing quote (docker -e "DB_PASSWORD=…", ["API_TOKEN=…"])',
    keywords: SECRET_NAME_KEYWORDS,
    pattern: new RegExp(
      String.raw`(?<=^|[\s=,[(])(?<q>["'])${ENV_KEY}=(?<secret>(?:(?!\k<q>)[^\n\\]|\\[^nr])+)(?=\k<q>(?=$|[\s,\])])|\\[nr])`,
      'gm',
    ),
    accept: (s) => literalValue(s, true),
  },
];
