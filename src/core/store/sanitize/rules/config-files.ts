// Secrets in configuration files whose layout, not a `key = value`, says where the secret is: a
// PostgreSQL password file line, an XML element named for a secret (Maven's settings.xml), a .NET
// `<add key="…Password" value="…"/>`, a property list's `<key>` and the `<string>` after it, a PuTTY
// key's `Private-Lines`, a Docker config in base64.
import { isPlaceholder, SECRET_NAME_END, unquote, type SecretRule } from './types';

/** A .pgpass field before the password: a name with `\:` and `\\` escapes, or `*`. */
const PGPASS_FIELD = String.raw`(?:(?:[^\s:\\"'*]|\\[:\\])+|\*)`;

/** `host:port:database:user:password`: five fields, the last up to a space, a quote or an escape (not a sixth field). */
const pgpass = (port: string): RegExp =>
  new RegExp(
    String.raw`(?<![^\s"'\x60])(?:[A-Za-z0-9_.-]+|\*):${port}:${PGPASS_FIELD}:${PGPASS_FIELD}:(?<secret>(?:[^\s:\\"'\x60]|\\[:\\])+)(?=$|[\s"'\x60]|\\[nrt])`,
    'gm',
  );

/** A line break in a key file, as written or escaped in JSON; a whole line of base64 before it. */
const PPK_BREAK = String.raw`[ \t]*(?:\r?\n|(?:\\r)?\\n)`;
const PPK_LINE = String.raw`[A-Za-z0-9+/]+={0,2}(?=[ \t]*(?:\r?\n|\\[rn]|$))`;

/** Names that say an element or setting holds a secret (ending in it: `<maxTokens>` is a number). */
const SECRET_NAME = String.raw`[\w.:-]*?${SECRET_NAME_END}`;

/** A value that is the secret, not a path to it, a reference or a stand-in. */
const secretValue = (s: string): boolean => {
  const v = unquote(s).trim();
  return !isPlaceholder(v) && !v.includes('${') && !/^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)\S*[/\\]/.test(v);
};

/** The object after a Composer token kind (`"github-oauth": {`), whose values are tokens by host. */
const COMPOSER_KIND = /["'](?:github-oauth|gitlab-token|gitlab-oauth)["']\s{0,20}:\s{0,20}\{/g;

/** The inside of each such object: from its `{` to the next brace (no object nests in it). */
function composerObjects(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  COMPOSER_KIND.lastIndex = 0;
  for (let m = COMPOSER_KIND.exec(text); m !== null; m = COMPOSER_KIND.exec(text)) {
    const start = m.index + m[0].length;
    let end = start;
    while (end < text.length && text[end] !== '{' && text[end] !== '}') end++;
    out.push([start, end]);
    COMPOSER_KIND.lastIndex = end;
  }
  return out;
}

export const CONFIG_FILE_RULES: readonly SecretRule[] = [
  {
    id: 'pgpass-password',
    title: 'PostgreSQL password file lines (~/.pgpass: host:port:database:user:password)',
    // No word on the line says "password"; the default ports and the `*` wildcard do.
    keywords: [':5432:', ':5433:', ':6432:', ':*:', 'pgpass'],
    pattern: pgpass(String.raw`(?:\d{1,5}|\*)`),
    accept: (s) => !isPlaceholder(s),
  },
  {
    // `cat ~/.pgpass` or a heredoc into it: the file's name is in the text, so any port counts.
    id: 'pgpass-password',
    title: 'PostgreSQL password file lines with other ports, in a text that names .pgpass',
    keywords: ['.pgpass'],
    multiline: true,
    fileLines: true,
    pattern: pgpass(String.raw`\d{1,5}`),
    accept: (s) => !isPlaceholder(s),
  },
  {
    id: 'xml-secret',
    title: 'XML elements named for a secret (<password>, <passphrase>, <apiKey>, <clientSecret>, Maven settings.xml)',
    keywords: ['password>', 'passwd>', 'passphrase>', 'secret>', 'token>', 'key>', 'credential>', 'credentials>'],
    pattern: new RegExp(
      String.raw`<(?<name>${SECRET_NAME})(?:[ \t][^<>\n]*)?>(?<secret>[^<>\n]{1,512})</\k<name>>`,
      'gi',
    ),
    accept: secretValue,
  },
  {
    id: 'xml-secret',
    title: '.NET / NuGet settings named for a secret (<add key="ClearTextPassword" value="…"/>)',
    keywords: ['value='],
    pattern: new RegExp(
      String.raw`<add[ \t]+key[ \t]*=[ \t]*(?<q>["'])${SECRET_NAME}\k<q>[ \t]+value[ \t]*=[ \t]*(?<secret>"[^"\n]*"|'[^'\n]*')`,
      'gi',
    ),
    accept: secretValue,
  },
  {
    // A property list holds a value in the element after its key, often on the next line.
    id: 'xml-secret',
    title: 'Property list values whose key names a secret (<key>password</key> <string>…</string>)',
    keywords: [
      'password</key>',
      'passwd</key>',
      'passphrase</key>',
      'secret</key>',
      'token</key>',
      'key</key>',
      'credential</key>',
      'credentials</key>',
    ],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(
      String.raw`<key>${SECRET_NAME}</key>(?:\s|\\[nrt]){0,200}<string>(?<secret>[^<>\n]{1,512})</string>`,
      'gi',
    ),
    accept: secretValue,
  },
  {
    // A PuTTY key file: the private key is the base64 lines after `Private-Lines: N`.
    id: 'private-key',
    title: 'PuTTY private keys (.ppk Private-Lines)',
    keywords: ['private-lines:'],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(
      String.raw`Private-Lines:[ \t]*\d+${PPK_BREAK}(?<secret>${PPK_LINE}(?:${PPK_BREAK}${PPK_LINE})*)`,
      'g',
    ),
  },
  {
    // Composer's auth.json (or COMPOSER_AUTH): each host's token is the value under the host's name, in
    // an object named for the kind of token; a GitHub OAuth token is 40 hex digits, like a commit hash.
    // The objects are found first, then their pairs: a look back of 512 characters from every quote of a
    // line naming the kinds took two thirds of the time to redact a 400 KB line of the corpus's secrets.
    id: 'composer-auth',
    title: 'Composer auth.json tokens by host ("github-oauth": {"github.com": "…"}, gitlab-token, gitlab-oauth)',
    keywords: ['github-oauth', 'gitlab-token', 'gitlab-oauth'],
    multiline: true,
    within: composerObjects,
    pattern: /(?<hq>["'])[\w.:-]+\k<hq>\s{0,20}:\s{0,20}(?<vq>["'])(?<secret>(?:(?!\k<vq>)[^\\\n])+)\k<vq>/g,
    accept: secretValue,
  },
  {
    // A Kubernetes `.dockerconfigjson` (or `.dockercfg`) is base64 of a Docker config with its credentials.
    id: 'docker-config-auth',
    title: 'Docker config JSON in base64 (Kubernetes .dockerconfigjson: eyJhdXRocyI6…)',
    keywords: ['eyJhdXRocyI6', 'eyJhdXRocyI'],
    exactKeywords: true,
    pattern: /\beyJhdXRocyI[6k][A-Za-z0-9+/]{16,}={0,2}/g,
  },
];
