// Secrets known by where they stand, not by their shape: the value of a key that names a secret, the
// password of a URL, an Authorization header, a database client's -p. The key, the URL's scheme, host
// and user stay readable; only the `secret` group is redacted.
import {
  entropy,
  hasDigitAndLetter,
  isDottedName,
  isPlaceholder,
  looksLikeName,
  literalValue,
  QUOTED,
  SECRET_KEY_WORDS,
  unquote,
  YAML_TAG,
  type SecretRule,
} from './types';
import { ENV_SETTER_RULES } from './env-setters';
import { URL_RULES } from './url-secrets';

/** An upper-case key ending in a secret word (`DB_PASSWORD`, `MYSQL_PWD`, `API_KEY`, `PGPASSWORD`). */
const ENV_WORDS = [
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'SECRET',
  'TOKEN',
  'CREDENTIAL',
  '_PASS',
  'PASS=',
  'PASS:',
  '_PWD',
  'PWD=',
  '_KEY',
  'KEY=',
  'KEY:',
  '_AUTH',
  'AUTH=',
  'APIKEY',
  '_PAT',
  'PAT=',
];
/** Secret words as they appear in code and config keys. Bare `pass`/`key`/`auth` are too common ("PASS", "monkey"). */
const CODE_WORDS = [...SECRET_KEY_WORDS, 'preshared', 'pre_shared', 'pre-shared', 'psk'];

/** Base64 that decodes to `user:password` (what Basic authorization carries), or `:token` (Azure DevOps' PAT). */
function basicCredentials(b64: string): boolean {
  const text = Buffer.from(b64, 'base64').toString('latin1');
  return /^(?:[\x20-\x7e]+:[\x20-\x7e]*|:[\x20-\x7e]{8,})$/.test(text);
}

/** An unquoted value: up to whitespace, quotes, separators, shell operators or an escape like `\n`. */
const BARE = String.raw`(?:[^\s"'\x60,;)}\]&|\\]|\\(?![ntr"'\\/u]))`;

/**
 * Not an unquoted value given to an attribute in code (`self.token = nextchar`, `this.apiKey = key`,
 * Ruby's `@password = password`): a literal there would be quoted, so it is a name. The value that
 * repeats its key (`credentials = credentials`) is a name too (see its use).
 */
const ATTRIBUTE_NOT_SET_FROM_NAME = String.raw`(?<!(?:\b(?:self|this|cls)\.|@)[\w]+["']?\]?[ \t]*(?:=>|:=|=|:)[ \t]*)`;

/**
 * Not the first word of a sentence (`pageToken: Continuation token for the next page.`, `:param
 * client_secret: Resource owner secret (…)`): a capitalised word and two words in lower case after it
 * describe the key in a docstring or a help text.
 */
const NOT_A_SENTENCE = String.raw`(?![A-Z][a-z]+[ \t]+[a-z]+[ \t]+\(?[a-z])`;

/**
 * Not a TypeScript type named for a secret (`type ProgressToken = z.infer<…>`): a type, not a value. The
 * look back is bounded: it runs wherever a key may start, and unbounded it read a long word (400 KB of
 * base64 after `token`) once per position, a minute for that one.
 */
const NOT_A_TYPE_ALIAS = String.raw`(?<!\btype[ \t]+[\w$]{0,64})`;

/** Not the first operand of an expression (`Whitespace + group(…)`, `provider ? null : …`). */
const NOT_AN_OPERAND = String.raw`(?![ \t]+(?:[-+*/%?]|&&|\|\||\?\?)[ \t]+[\w$(\['"])`;

/** A Cookie header's character: not past the end of a quoted or JSON-escaped string it sits in. */
const COOKIE_CHAR = String.raw`(?:[^\n"'\\]|\\(?![ntr"'\\/u]))`;

/** A .netrc value: any run without whitespace, but not past a quote or an escape of the JSON it sits in. */
const NETRC_VALUE = String.raw`(?:[^\s"'\\]|\\(?![ntr"'\\/u]))`;

/** Between a key and its value: `=`, `=>`, `:=` (also after a key indexed in brackets: `environ["API_KEY"] = `), or a colon after a quoted key or before a space (YAML, JSON, headers; not `token:x` inside a URL). */
/**
 * Not a test runner's result (`PASS: Simple bytes`, `--- PASS: TestLogin (0.00s)`, `PASS: cpu_shares=0`,
 * `PASS: tests/unit/a.test.ts`): a bare `PASS:` before words, a `name=value` label or a file's path.
 */
const NOT_A_TEST_STATUS = String.raw`(?!(?<![\w.-])PASS[ \t]*:[ \t]+(?!["'\x60])(?:[^\s\\]+[ \t]+[^\s#\\]|[A-Za-z_][\w.-]*=|(?:[\w.-]+\/)+[\w.-]*\.[A-Za-z]{1,5}(?:::\S*)?[ \t]*(?:\r?\n|\\[nr]|$)))`;

const SEPARATOR = String.raw`(?:["']?\]?[ \t]*(?:=>|:=|=)|["'][ \t]*:(?![:=])|[ \t]*:[ \t])[ \t]*${YAML_TAG}`;

/** A secret word starts a key or a camelCase part (`api_key`, `clientSecret`), not a word (`tiktoken`). */
const KEY_START = String.raw`(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))`;

export const tokenLike = (s: string): boolean => hasDigitAndLetter(s) || entropy(s) >= 3.5;

/**
 * `name=value` whose value (up to a blank) is long and random enough to be a session or auth token.
 * Neither holds a blank or a parenthesis: `case "cookie": value = (0, getCookie)(c)` is code.
 */
export const tokenCookie = (cookie: string): boolean => {
  const c = cookie.trim();
  const eq = c.indexOf('=');
  const value = c.slice(eq + 1).split(/\s/)[0]!;
  return eq > 0 && !/[\s()]/.test(c.slice(0, eq)) && !/[()]/.test(value) && value.length >= 12 && tokenLike(value);
};

export const CONTEXT_RULES: readonly SecretRule[] = [
  ...URL_RULES,
  {
    id: 'basic-auth',
    title: 'Authorization: Basic credentials',
    keywords: ['basic'],
    pattern: /\bbasic[ \t]+(?<secret>[A-Za-z0-9+/]{6,}={0,2})(?![\w+/=])/gi,
    accept: basicCredentials,
  },
  {
    id: 'bearer-token',
    title: 'Bearer tokens (Authorization: Bearer …, and a key named bearer: `{"bearer": "…"}`)',
    keywords: ['bearer'],
    // As a key: quoted (JSON), before `=`, or starting a YAML line; `the bearer: …` in prose is no key.
    pattern:
      /(?:\bbearer[ \t]+|["']bearer["'][ \t]*:[ \t]*["']?|\bbearer[ \t]*=[ \t]*["']?|^[ \t]{0,16}bearer:[ \t]+)(?<secret>[\w.~+/-]{16,}=*)/gim,
    accept: tokenLike,
  },
  {
    id: 'authorization-header',
    title: 'Other Authorization / Proxy-Authorization header values (token, Digest, SSWS, …)',
    keywords: ['authorization'],
    pattern:
      /\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["'`]?(?:(?:token|digest|apikey|api-key|sso-key|ssws|key|negotiate)[ \t]+)?(?<secret>(?:[\w.~+/=:,-]|(?<==)"){12,})/gi,
    // A quote only opens a Digest parameter's value (`username="…`): the header's own closing quote and
    // what follows it (`","Accept":"application/json"` in JSON) are not part of the value.
    // `authorization = authorization.split()` in code is a name, not a header.
    accept: (s) => !/^(?:basic|bearer)$/i.test(s) && tokenLike(s) && !looksLikeName(s),
  },
  {
    id: 'api-key-header',
    title:
      'API key headers (X-API-Key, Api-Key, X-Auth-Token, Private-Token, X-Goog-Api-Key, Ocp-Apim-Subscription-Key, x-functions-key, …)',
    keywords: [
      'api-key',
      'apikey',
      'auth-token',
      'private-token',
      'access-token',
      'api-token',
      'subscription-key',
      'functions-key',
    ],
    pattern: new RegExp(
      String.raw`\b(?:x-)?(?:api-key|apikey|auth-token|private-token|access-token|api-token|goog-api-key|ocp-apim-subscription-key|functions-key)["']?[ \t]*:[ \t]*["'\x60]?(?<secret>[\w.~+/=-]{12,})(?![\w.~+/=-])${NOT_AN_OPERAND}`,
      'gi',
    ),
    // `apiKey: process.env.OPENAI_API_KEY` in code names where the key is.
    accept: (s) => tokenLike(s) && !isDottedName(s),
  },
  {
    id: 'cli-password',
    title:
      'Passwords on command lines (mysql/mariadb -p…, sshpass -p, redis-cli -a, docker / podman / helm registry / az / oc login -p)',
    keywords: ['mysql', 'mariadb', 'sshpass', 'redis-cli', 'login'],
    pattern:
      /\b(?:(?:mysql\w*|mariadb[\w-]*)\b[^\n|;&]{0,1024}?[ \t]-p|sshpass[ \t]+-p[ \t]*|redis-cli\b[^\n|;&]{0,1024}?[ \t]-a[ \t]+|(?:docker|podman|buildah|skopeo|nerdctl|oras|helm[ \t]+registry|az|oc)[ \t]+login\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+)(?<secret>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)/g,
    accept: (s) => !isPlaceholder(s),
  },
  {
    id: 'cli-password',
    title: 'Secret command-line options (--password=…, --token …, --api-key …, --client-secret …)',
    // `m`: the lines holding a keyword are searched as one text, so `^` must match at every line start.
    keywords: [
      'password',
      'passwd',
      '-pass',
      '_pass',
      'secret',
      'token',
      'api-key',
      'apikey',
      'access-key',
      'auth-token',
      'account-key',
      'master-key',
      'oauth2-bearer',
    ],
    pattern:
      /(?:^|[ \t"'])--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|passphrase|secret|token|api-key|apikey|access-key|secret-key|auth-token|client-secret|account-key|master-key|oauth2-bearer)(?<!\bpulumi\b[^\n|;&]{0,1024}[ \t]--secret)(?:=|[ \t]+)(?<secret>'[^'\n]*'|"[^"\n]*"|[^\s'"-][^\s'"]*)/gim,
    // A path, or where the tool reads the secret from (apksigner's and openssl's `env:NAME`, `file:path`).
    // A word of prose names the option (Docker's `Using --password via the CLI is insecure`).
    accept: (s) =>
      !isPlaceholder(s) &&
      !/^\/|^\.{0,2}\/|^(?:env|file|fd):/.test(unquote(s)) &&
      !/^(?:via|is|are|was|on|in|for|with|from|and|or|to|the|instead|flag|option)$/.test(s),
  },
  {
    id: 'netrc-password',
    title: '.netrc / _netrc passwords (machine host login user password …)',
    keywords: ['password'],
    pattern: new RegExp(
      String.raw`\b(?:machine[ \t]+\S+(?:[ \t]+(?:login|account|port)[ \t]+\S+)*|default(?:[ \t]+(?:login|account|port)[ \t]+\S+)+)[ \t]+password[ \t]+(?<secret>${NETRC_VALUE}+)`,
      'g',
    ),
    accept: (s) => !isPlaceholder(s),
  },
  {
    // The multi-line layout: `password …` starts its own line. Prose can too ("password reset"), so
    // the value must look random.
    id: 'netrc-password',
    title: '.netrc passwords on a line of their own',
    keywords: ['password'],
    exactKeywords: true,
    pattern: new RegExp(String.raw`^[ \t]*password[ \t]+(?<secret>${NETRC_VALUE}+)`, 'gm'),
    // A lower-case word is prose ("password combination."), not a password file's line.
    accept: (s) => !isPlaceholder(s) && !/^[a-z]+[.,;:]?$/.test(s) && (hasDigitAndLetter(s) || entropy(s) >= 3),
  },
  {
    id: 'docker-config-auth',
    title: 'Docker / Podman config.json credentials ("auth": base64 user:password, "identitytoken")',
    keywords: ['"auth"', 'identitytoken', 'registrytoken'],
    pattern: /"(?:auth|identitytoken|registrytoken)"[ \t]*:[ \t]*"(?<secret>[A-Za-z0-9+/=._-]{8,})"/gi,
    accept: (s) => !isPlaceholder(s) && (basicCredentials(s) || tokenLike(s)),
  },
  {
    // A session cookie is a login. Set-Cookie carries one cookie: its value goes, the attributes stay.
    id: 'cookie',
    title: 'Session cookies (Set-Cookie and Cookie headers, curl -b / --cookie)',
    keywords: ['set-cookie'],
    pattern: /\bset-cookie["']?[ \t]*:[ \t]*["']?[^=;\s"'\\]{1,128}=(?<secret>[^;\s"'\\]{12,})/gi,
    accept: tokenLike,
  },
  {
    // A Cookie header holds several; the whole value goes when one of them looks like a token.
    id: 'cookie',
    title: 'Session cookies in a Cookie request header',
    keywords: ['cookie'],
    pattern: new RegExp(
      // The first cookie's `=` comes early: an unbounded search for it was quadratic on a long line.
      String.raw`(?<![\w-])cookie["']?[ \t]*:[ \t]*["']?(?<secret>${COOKIE_CHAR}{0,256}?=${COOKIE_CHAR}*)`,
      'gi',
    ),
    accept: (s) => s.split(';').some(tokenCookie),
  },
  {
    id: 'cookie',
    title: 'Cookies on a curl command line (-b / --cookie name=value)',
    keywords: ['curl'],
    pattern:
      /\bcurl\b(?:(?!curl\b)[^\n]){0,4096}?[ \t](?:-b|--cookie)(?:[ \t]+|=)(?<secret>"[^"\n]*=[^"\n]*"|'[^'\n]*=[^'\n]*'|[^\s"'=\\]+=[^\s"'\\]+)/g,
    accept: (s) => /=[^;\s"']{12,}/.test(s) && !isPlaceholder(s),
  },
  {
    id: 'curl-user',
    title: 'curl -u / --user / -U / --proxy-user user:password',
    keywords: ['curl'],
    pattern:
      /\bcurl\b(?:(?!curl\b)[^\n]){0,4096}?[ \t](?:-[uU](?:[ \t]+|(?=[^\s-]))|(?:--user|--proxy-user)(?:[ \t]+|=))["']?[^:\s"']*:(?<secret>[^\s"']+)/g,
    accept: (s) => !isPlaceholder(s),
  },
  {
    id: 'npmrc-auth',
    title: '.npmrc / .yarnrc.yml credentials (_authToken=, _auth=, _password=, npmAuthToken:, npmAuthIdent:)',
    keywords: ['_authtoken', '_auth', '_password', 'npmauthtoken', 'npmauthident'],
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9.])(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)["']?[ \t]*[=:][ \t]*["']?(?<secret>${BARE}+)`,
      'gi',
    ),
    accept: (s) => !isPlaceholder(s) && !looksLikeName(s),
  },
  {
    id: 'aws-secret-access-key',
    title: 'AWS secret access key and session token (aws_secret_access_key, SecretAccessKey, SessionToken)',
    keywords: [
      'secret_access_key',
      'secretaccesskey',
      'secret-access-key',
      'aws_secret',
      'sessiontoken',
      'session_token',
    ],
    // `|` too: the cell after the name in `--output table` (`|  SecretAccessKey|  wJalr…  |`).
    pattern:
      /(?:secret[_-]?access[_-]?key|aws[_-]?secret(?:[_-]?key)?|session[_-]?token)["']?[ \t]*(?:[:=]|=>|\|)[ \t]*["']?(?<secret>[A-Za-z0-9/+=]{40,})/gi,
  },
  {
    // Where no name says which field is the secret: `aws iam create-access-key --output text` (`ACCESSKEY
    // AKIA…  2024-…  wJalr…  Active  bob`), a credentials CSV (`bob,,AKIA…,wJalr…`). The 40 characters
    // of mixed case beside the key id are its secret (a commit hash is one case).
    id: 'aws-secret-access-key',
    title: 'AWS secret access key on the line of its access key id (--output text, credentials CSV)',
    keywords: ['AKIA', 'ASIA'],
    exactKeywords: true,
    pattern:
      /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b[^\n]{0,200}?(?<![A-Za-z0-9/+=])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    accept: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s),
  },
  {
    // What `aws configure` shows and echoes: `AWS Secret Access Key [****************KEY]: <typed key>`.
    id: 'aws-secret-access-key',
    title: "AWS secret access keys typed at aws configure's prompt (AWS Secret Access Key [None]: …)",
    keywords: ['secret access key'],
    pattern: /AWS Secret Access Key[ \t]*\[[^\]\n]{0,64}\]:[ \t]*(?<secret>[A-Za-z0-9/+=]{40,})/gi,
  },
  {
    id: 'gcp-private-key-id',
    title: 'GCP service-account private_key_id (the private_key itself is a private-key block)',
    keywords: ['private_key_id'],
    pattern: /"private_key_id"[ \t]*:[ \t]*"(?<secret>[a-f0-9]{40})"/g,
  },
  {
    id: 'azure-storage-key',
    title: 'Azure storage account key and Service Bus / Event Hubs SAS key (AccountKey=, SharedAccessKey=)',
    keywords: [
      'accountkey',
      'account_key',
      'storagekey',
      'storage_key',
      'accesskey',
      'access_key',
      'primarykey',
      'primary_key',
      'sharedaccesskey',
    ],
    pattern:
      /(?:account|storage|access|primary|secondary|sharedaccess)[_-]?key["']?[ \t]*[:=][ \t]*["']?(?<secret>[A-Za-z0-9+/]{42,}={0,2})/gi,
    entropy: 4,
  },
  {
    id: 'vendor-secret',
    title: 'Twilio auth token, Mailgun key, Heroku key by vendor name (twilio…=, mailgun…=, heroku…=)',
    keywords: ['twilio', 'mailgun', 'heroku'],
    pattern:
      /(?:twilio|mailgun|heroku)[\w.-]{0,30}["']?[ \t]*[:=][ \t]*["']?(?<secret>[0-9a-f]{32}(?:-[0-9a-f]{8}-[0-9a-f]{8})?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi,
  },
  {
    id: 'env-secret',
    title:
      'Environment-style assignments whose key names a secret (*_PASSWORD, *_SECRET, *_TOKEN, *_KEY, PGPASSWORD, SSHPASS, …)',
    keywords: ENV_WORDS,
    exactKeywords: true,
    pattern: new RegExp(
      String.raw`${NOT_A_TEST_STATUS}(?:(?<![a-z])(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIALS?)|(?<![A-Za-z0-9])(?:SSHPASS|PASS|PWD|KEY|AUTH|APIKEY|PAT))(?:_BASE)?${SEPARATOR}(?<secret>${QUOTED}|${BARE}+)`,
      'g',
    ),
    accept: literalValue,
  },
  ...ENV_SETTER_RULES,
  {
    id: 'code-secret',
    title: 'Secret-named keys in code, JSON, YAML and INI (password, secret, token, apiKey, client_secret, …)',
    keywords: CODE_WORDS,
    pattern: new RegExp(
      String.raw`${KEY_START}${NOT_A_TYPE_ALIAS}(?<key>[Pp]ass(?:word|wd|phrase)|[Ss]ecret(?:[_-]?[Kk]ey(?:[_-]?[Bb]ase)?)?|[Tt]oken|[Aa]pi[_-]?[Kk]ey|[Aa]ccess[_-]?[Kk]ey|[Pp]rivate[_-]?[Kk]ey|[Cc]redentials?|[Pp]re[_-]?[Ss]hared[_-]?[Kk]ey|psk|PASS(?:WORD|WD|PHRASE)|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?)${SEPARATOR}(?<secret>"(?:[^"\\\n]|\\.){1,512}"|'(?:[^'\\\n]|\\.){1,512}'|\x60[^\x60\n]{1,512}\x60|${ATTRIBUTE_NOT_SET_FROM_NAME}(?!\k<key>(?!${BARE}))${NOT_A_SENTENCE}${BARE}{1,512}(?!${BARE})${NOT_AN_OPERAND})`,
      'g',
    ),
    accept: (s, quoted) => literalValue(s, quoted) && unquote(s).length >= 4,
  },
];
