// The rule table, format by format: each corpus line is redacted under its expected rule id, keeps
// its key or URL around the secret readable, and secretlint's preset (kept as an oracle) finds nothing
// in the corpus that the table leaves standing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertQuick } from '../../support/linear-time';
import fc from 'fast-check';
import { clipRedacted, redactSecrets, setCustomPatterns } from '../../../src/core/store/sanitize/secrets';
import { BUILTIN_RULES } from '../../../src/core/store/sanitize/rules/index';
import {
  DECODE_PASSES,
  decodedView,
  eachStringView,
  SEQUENCE,
  SIMPLE,
} from '../../../src/core/store/sanitize/decoded-view';
import { redactJsonText } from '../../../src/core/store/sanitize/json-values';
import { redactJson } from '../../../src/core/store/store-writer';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generate } from '../../../scripts/gen-secret-corpus';
import { CORPUS, CONTEXTS, leakedFormats, pythonRepr, windowsOf } from '../../support/secret-corpus';

test('the committed corpus is exactly what the seeded generator writes (no hand-made secret)', () => {
  const committed = readFileSync(path.join(__dirname, '../../fixtures/secrets/corpus.json'), 'utf8');
  assert.equal(committed, JSON.stringify(generate(), null, 1) + '\n');
});

test('every corpus line is redacted under its expected rule, with nothing of the secret left', async () => {
  const wrong: string[] = [];
  for (const e of CORPUS) {
    const r = await redactSecrets(e.line + '\n');
    const leaked = leakedFormats(r.text, windowsOf([e]));
    if (leaked.size > 0 || !r.counts[e.rule])
      wrong.push(`${e.format}: ${JSON.stringify(r.counts)} ${r.text.slice(0, 120)}`);
  }
  assert.deepEqual(wrong, []);
});

test('the leak check finds every secret when nothing is redacted', () => {
  const raw = Object.values(CONTEXTS)
    .flatMap((make) => CORPUS.map((e) => make(e) ?? ''))
    .join('\n');
  assert.equal(leakedFormats(raw, windowsOf(CORPUS)).size, new Set(CORPUS.map((e) => e.format)).size);
});

test('redacted text stays useful: key names, URL user and host, quotes and JSON stay', async () => {
  const cases: [string, string][] = [
    ['DB_PASSWORD=hunter2-x9', 'DB_PASSWORD=[REDACTED:env-secret]'],
    [
      'postgres://user:s3cr3t-pw@db.example.com:5432/app',
      'postgres://user:[REDACTED:url-password]@db.example.com:5432/app',
    ],
    ['mysql -u root -pS3cret!x db', 'mysql -u root -p[REDACTED:cli-password] db'],
    ['{"password": "hunter2-x9"}', '{"password": "[REDACTED:code-secret]"}'],
    [
      'https://x.example/cb?code=1&access_token=abcDEF123456&state=2',
      'https://x.example/cb?code=1&access_token=[REDACTED:url-secret-param]&state=2',
    ],
  ];
  for (const [input, expected] of cases) assert.equal((await redactSecrets(input)).text, expected);
  const json = '{"content":"A=1\\nAPI_TOKEN=tok-4f9a8b7c6d5e\\tGITHUB_TOKEN=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"}';
  const out = (await redactSecrets(json)).text;
  assert.doesNotThrow(() => JSON.parse(out), 'JSON stays valid');
  assert.equal(JSON.parse(out).content, 'A=1\nAPI_TOKEN=[REDACTED:env-secret]\tGITHUB_TOKEN=[REDACTED:github-token]');
});

test('ordinary text is left alone', async () => {
  const lines = [
    'password: string;',
    'const token = getToken();',
    'if (password === confirmPassword) return;',
    'max_tokens: 4096',
    'the basic idea: pass the key to the next stage',
    'Authorization: Bearer ${TOKEN}',
    'DB_PASSWORD=${DB_PASSWORD}',
    'secret: true',
    'PASS  src/auth/token.test.ts (12 ms)',
    '"integrity": "sha512-qOwUoiVHh2Un3lGaJz9hpRjpD4nF2UuN5HhMQZyKbzW1ZbvOtq+ucs0vUAbRKd3Uc1mBqjNp8sxYlkdEZTklAg=="',
    'commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a',
  ];
  for (const line of lines) assert.equal((await redactSecrets(line)).text, line, line);
});

test('a key described in a docstring, named by a type, shown masked or given by a YAML tag stays; a value before words of a log line does not', async () => {
  const kept = [
    'pageToken: Continuation token for fetching the next page of results.',
    ':param resource_owner_secret: Resource owner secret (oauth token secret).',
    ' * - For client_credentials: Automatically via grant_types in clientMetadata',
    '    credentials: Credentials object used to sign requests',
    'export type ProgressToken = z.infer<typeof ProgressTokenSchema>;',
    '"description": "apiToken: Personal access token with the repo scope"',
    '  - Token: gho_************************************',
    'api_key: !Ref ApiKeyParam',
    'db_password: !secret mariadb_password',
    'password: !vault |',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
  const redacted: Array<[string, string]> = [
    ['password: swordfish for user admin', 'password: [REDACTED:code-secret] for user admin'],
    ['password: Swordfish', 'password: [REDACTED:code-secret]'],
    ['password: Swordfish # the db', 'password: [REDACTED:code-secret] # the db'],
    ['login with password: Tr0ub4dor for user admin', 'login with password: [REDACTED:code-secret] for user admin'],
    ['const token = Abcdefgh;', 'const token = [REDACTED:code-secret];'],
    ['password: !Passw0rd', 'password: [REDACTED:code-secret]'],
    ['password: ab****cd1234567', 'password: [REDACTED:code-secret]'],
    // Random letters in both cases are not camelCase words.
    ['smtp.login("me@example.com", "URgeVVHReSqwqTqJ")', 'smtp.login("me@example.com", "[REDACTED:code-secret]")'],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
});

test("a dependency's version under a package named for a secret stays (package.json, a Gemfile, pyproject)", async () => {
  const kept = [
    '    "@octokit/auth-token": "^4.0.0",',
    '    "@secretlint/secretlint-rule-privatekey": "^9.3.2",',
    '    "passport-http-bearer-token": "~1.0.1",',
    '    "csrf-token": "^1.0.0 || ^2.0.0-rc.1",',
    '    "jwt-token": ">=10",',
    '    "oauth-token": "workspace:*",',
    '    "jwt-token": "npm:jsonwebtoken@9",',
    "gem 'jwt-token', '~> 2.7'",
    'auth-token = ">= 1.0, < 2"',
    '    "gradle-token": "1.0.0-SNAPSHOT",',
    '    "session-token": "^3.0.0-beta.2+5114f85",',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
  const redacted: Array<[string, string]> = [
    ['password: 123456', 'password: [REDACTED:code-secret]'],
    ["password: 'v1.2.3-abcdefghijklmnopqrstuvwxyz0123'", "password: '[REDACTED:code-secret]'"],
    ["password: '^4.0.0a8f9c0d1e2'", "password: '[REDACTED:code-secret]'"],
    // A number, then tags in mixed case: a password, not a prerelease (a CI run found these).
    ['ENV ADMIN_TOKEN=4-DCJ.XVWG44', 'ENV ADMIN_TOKEN=[REDACTED:env-secret]'],
    ['API_KEY ?= 2+bzA9kHP.jPpv4', 'API_KEY ?= [REDACTED:env-secret]'],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
});

test('an account key longer than usual goes whole, not up to 88 characters', async () => {
  const key = 'abcdefghijABCDEFGHIJ0123456789'.repeat(3) + 'ab==';
  assert.equal(
    await redactSecrets(`AccountName=acct;AccountKey=${key};EndpointSuffix=core.windows.net`).then((r) => r.text),
    'AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
  );
});

// Each of these took from 8 s to minutes when a rule's search was quadratic in the line's length (a
// hostile file read by the agent could hold the extension host that long); linear, all take about a second.
test('an AWS secret key beside its key id is redacted where no name says it is one (--output text / table, a CSV)', async () => {
  const id = 'AKIA' + 'Q3ZB7N4TRW2YLX5M';
  const secret = 'ixmG3iT6yHLzT/81NPyPhDIfl2OzzsyWe6mSacN4';
  for (const line of [
    `ACCESSKEY\t${id}\t2024-05-01T10:00:00Z\t${secret}\tActive\tbob`,
    `||  SecretAccessKey|  ${secret}  ||`,
    `bob,,${id},${secret}`,
  ]) {
    const r = await redactSecrets(line + '\n');
    assert.ok(!r.text.includes(secret), r.text);
    assert.ok(r.counts['aws-secret-access-key'], r.text);
  }
  // A commit hash beside a key id is one case of hex: it stays.
  const hash = '3f786850e387550fdab836ed7e6dc881de23001b';
  assert.ok((await redactSecrets(`${id} ${hash}\n`)).text.includes(hash));
});

test('long hostile lines are read in linear time (a loose bound: minutes before, under a second now)', async () => {
  const started = performance.now();
  const n = 400_000;
  const lines = [
    'authorization='.repeat(n / 14),
    'cookie: '.repeat(n / 8),
    `auth=${' '.repeat(n)}x`,
    `passwd ${'a '.repeat(n / 2)}`,
    'htpasswd: '.repeat(n / 10),
    'redis-cli: '.repeat(n / 11),
    'mysql: '.repeat(n / 7),
    'smbclient: '.repeat(n / 11),
    'curl='.repeat(n / 5),
    `- name: DB_PASSWORD\n  value: a${' '.repeat(n)}b\n`,
    '-----BEGIN OpenVPN Static key V1-----\n'.repeat(n / 38),
    // A run that stops short of the end: trailing-run regexes (/[,;.:)]+$/) were tried at every position.
    `password=a${','.repeat(n)}b`,
    `DB_PASSWORD: a${')'.repeat(n)}b`,
    `secret = Map<a${'?'.repeat(n)}b`,
    // Strings read alone (a file printed in JSON): quotes that open, escape or nest without end.
    '"password: |\\n'.repeat(n / 15),
    `"${'\\"\\n'.repeat(n / 4)}`,
    `{"a":"password: |\\n${'  x\\n'.repeat(n / 5)}"}`,
    '"\\\\n\\"- name: DB_PASSWORD\\\\n  value: '.repeat(n / 40),
    "'pass = a\\n".repeat(n / 12),
    // Lines behind tools' prefixes (grep's `path:12:`): long paths, and runs that never reach a number.
    `${'p/'.repeat(100)}:1:password: |\n`.repeat(n / 215),
    `${'a'.repeat(200)}-password: x\n`.repeat(n / 212),
    // HTML entities and URL encoding, decoded: runs of them after a key.
    `password%3D${'%25'.repeat(n / 3)}`,
    `&quot;password&quot;: &quot;${'&amp;'.repeat(n / 5)}`,
    // One long word after a secret word: a key may start at each of its capitals or after each `_`, and
    // each start looked back over the whole word for `type ` (a minute for 400 KB of base64).
    `token ${'xY9'.repeat(n / 3)}`,
    `password${'A_'.repeat(n / 2)}KEY x`,
    // Many options after `kubectl create secret`: each looked back to the line's start.
    `kubectl create secret generic x${' --from-literal'.repeat(n / 15)}`,
    // Doppler's objects that never close, URLs as values with blanks and no host, keys after backticks.
    '{"raw":"a","computed":"b",'.repeat(n / 26),
    `{"computed":${'{"raw":"a", '.repeat(n / 12)}`,
    `DATABASE_URL=postgres://u:${'a b '.repeat(n / 4)}`,
    '="x://u:a b c d e f@h'.repeat(n / 20),
    `${'\x60'.repeat(n)}token: |`,
    `x = \x60password: |\n${' y\x60\n'.repeat(n / 4)}`,
    // Terraform's sensitive values: blanks before a string (a look back from every blank took minutes).
    `{"sensitive":true,"value":[${' '.repeat(n)}"x"${' '.repeat(n)}]}`,
    `{"sensitive":true,"value":${'{"value":'.repeat(n / 9)}`,
  ];
  for (const line of lines) assert.equal(typeof (await redactSecrets(line)).text, 'string');
  assertQuick(started);
});

test('escapes are decoded for matching and mapped back to whole escape sequences', () => {
  const v = decodedView('a\\nb\\u001b[31mc\\"d')!;
  assert.equal(v.text, 'a\nbc"d');
  // `\n` (2 source characters) is one decoded character; the ANSI sequence maps to nothing.
  assert.deepEqual([v.start[1], v.end[1]], [1, 3]);
  assert.equal(decodedView('plain text'), undefined);
});

test('the decoded view is what decoding one character at a time gives, offsets included (property)', () => {
  // The reference: the plain loop the view was first written as (its escape tables are the view's).
  const SEQ = new RegExp(SEQUENCE.source, 'y');
  type V = { text: string; start: number[]; end: number[] };
  const pass = (v: V, step: (t: string, i: number) => [string | null, number] | undefined): V => {
    const out: V = { text: '', start: [], end: [] };
    const put = (ch: string, s: number, e: number): void => {
      out.text += ch;
      out.start.push(s);
      out.end.push(e);
    };
    for (let i = 0; i < v.text.length;) {
      const r = step(v.text, i) ?? [v.text[i]!, 1];
      if (r[0] !== null) put(r[0], v.start[i]!, v.end[i + r[1] - 1]!);
      i += r[1];
    }
    return out;
  };
  const unescape = (t: string, i: number): [string, number] | undefined => {
    if (t[i] !== '\\' || i + 1 >= t.length) return undefined;
    if (SIMPLE[t[i + 1]!] !== undefined) return [SIMPLE[t[i + 1]!]!, 2];
    const hex = t.slice(i + 2, i + 6);
    return t[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), 6] : undefined;
  };
  const strip = (t: string, i: number): [null, number] | undefined => {
    if (t[i] !== '\x1b') return undefined;
    SEQ.lastIndex = i;
    const m = SEQ.exec(t);
    return m ? [null, m[0].length] : undefined;
  };
  const reference = (src: string): V => {
    let v: V = {
      text: src,
      start: Array.from({ length: src.length }, (_, i) => i),
      end: Array.from({ length: src.length }, (_, i) => i + 1),
    };
    for (let k = 0; k < DECODE_PASSES && /\\(?:[ntrbf"'\\/]|u[0-9a-fA-F]{4})/.test(v.text); k++) v = pass(v, unescape);
    if (v.text.includes('\x1b')) v = pass(v, strip);
    // A CSV field's doubled quotes, when one is followed by what a field holds (a name, a brace).
    if (/(?:^|[,;\t])"[^"]*""[^\s",;]/m.test(v.text)) {
      const pairs = csvPairs(v.text);
      v = pass(v, (_t, i) => (pairs.has(i) ? ['"', 2] : undefined));
    }
    return v;
  };
  /** Where a CSV field has a doubled quote: a field opens at a line's start or after a separator. */
  const csvPairs = (t: string): Set<number> => {
    const pairs = new Set<number>();
    const ends = ',;\t\r\n';
    for (let i = 0; i < t.length; i++) {
      if (t[i] !== '"' || (i > 0 && !ends.includes(t[i - 1]!))) continue;
      const found: number[] = [];
      let j = i + 1;
      for (; j < t.length && !(t[j] === '"' && t[j + 1] !== '"'); j++) if (t[j] === '"') found.push(j++);
      // Closed before a separator or the end, or still open at the end.
      const field = j >= t.length - 1 || ends.includes(t[j + 1]!);
      if (field) for (const p of found) pairs.add(p);
      if (j >= t.length) break;
      // A quote that closed no field is read again as the next one's opening.
      i = field ? j : j - 1;
    }
    return pairs;
  };
  const alphabet = [
    'a',
    ',',
    ',"',
    '""',
    'Z',
    '\\',
    'n',
    'u',
    '0',
    '1',
    'b',
    'f',
    '"',
    '/',
    '\x1b',
    '[',
    '3',
    'm',
    ']',
    '\x07',
    ' ',
    'é',
    '\uD83D\uDE00',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }), (chars) => {
      const src = chars.join('');
      const v = decodedView(src);
      const r = reference(src);
      if (v === undefined) return assert.ok(r.text === src, JSON.stringify(src));
      assert.deepEqual([v.text, [...v.start], [...v.end]], [r.text, r.start, r.end], JSON.stringify(src));
    }),
    { numRuns: 3000 },
  );
});

test("a JSON document's multi-line strings are read alone, also inside a string of another (property)", () => {
  // Any JSON; the strings holding a line break are given decoded, each character mapped to its source.
  // (No backslash in them: a string holding `"a\\nb"` holds a string, which is read alone too.)
  const str = fc.array(fc.constantFrom('a', 'n', ' ', '\n', '\t', '"', 'é'), { maxLength: 12 }).map((a) => a.join(''));
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      str,
      fc.integer(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(str, tie('value'), { maxKeys: 4 }),
    ),
  }));
  let seen = 0;
  fc.assert(
    fc.property(value, fc.boolean(), (v, nest) => {
      const inner = JSON.stringify(v);
      const src = nest ? JSON.stringify({ arguments: inner }) : inner;
      const want: string[] = [];
      JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' && x.includes('\n') && want.push(x), x));
      JSON.stringify(v, (k, x: unknown) => (k.includes('\n') && want.push(k), x));
      const got: string[] = [];
      eachStringView(src, false, (sv) => {
        got.push(sv.text);
        for (let i = 0; i < sv.text.length; i++) {
          // A character comes from its own escape (or itself) in the source, read at the view's level.
          const from = src.slice(sv.start[i]!, sv.end[i]!);
          const once = from.startsWith('\\') ? (JSON.parse(`"${from}"`) as string) : from;
          const plain = nest && once.startsWith('\\') ? (JSON.parse(`"${once}"`) as string) : once;
          assert.equal(plain, sv.text[i], JSON.stringify({ src, i }));
        }
      });
      assert.deepEqual(got.sort(), want.sort(), src);
      seen += got.length;
    }),
    { numRuns: 2000 },
  );
  assert.ok(seen > 500, `${seen} strings read alone`);
  // Python's repr quotes with either quote; an apostrophe in a word opens no string.
  const pyStr = fc
    .array(fc.constantFrom('a', '\n', '"', "'", '\\', 'é', "it's"), { maxLength: 8 })
    .map((a) => a.join(''));
  fc.assert(
    fc.property(fc.array(pyStr, { maxLength: 5 }), (strings) => {
      const src = `{'prose': "it's", 'items': [${strings.map(pythonRepr).join(', ')}]}`;
      const got: string[] = [];
      eachStringView(src, false, (sv) => got.push(sv.text));
      assert.deepEqual(got.sort(), strings.filter((x) => x.includes('\n')).sort(), src);
    }),
    { numRuns: 1000 },
  );
});

test('HTML entities and URL encoding are read as the text they stand for; the markup around stays', async () => {
  const cases: [string, string][] = [
    ['<div data-config="{&quot;password&quot;: &quot;Hunter2-html9&quot;}">', 'Hunter2-html9'],
    ['&lt;password&gt;Hunter2-xml9&lt;/password&gt;', 'Hunter2-xml9'],
    ['POST /login body=username%3Dbob%26password%3DHunter2-url9%26remember%3D1', 'Hunter2-url9'],
    ['GET /share?text=DB_PASSWORD%3DHunter2-url8%0APORT%3D5432 HTTP/1.1', 'Hunter2-url8'],
  ];
  for (const [text, secret] of cases) {
    const out = (await redactSecrets(text)).text;
    assert.ok(!out.includes(secret) && out.includes('[REDACTED:'), out);
    // Only the secret's own characters go: every entity or `%XX` outside it is kept whole.
    const left = text.split(secret);
    assert.ok(out.startsWith(left[0]!) && out.endsWith(left[1]!), out);
  }
  assert.equal((await redactSecrets('a%20b &amp; c &lt;token&gt; d')).text, 'a%20b &amp; c &lt;token&gt; d');
});

test('TypeScript annotations naming a type and constants holding a route stay; passwords shaped alike do not', async () => {
  const kept = [
    '  secretKey: Uint8Array;',
    '  privateKey: Uint8Array',
    'export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array;',
    'export function hmac(secret: Uint8Array, data: Uint8Array): Uint8Array {',
    '    constructor(message: string, parserState: Array<string>, token: CSSToken);',
    '    credential: Credential;',
    '    idToken: IdTokenEntity;',
    '  private token: OAuth2Token;',
    '  credentials: AWSCredentials;',
    '  password: SHA256Hash;',
    '  token: JWTPayload;',
    '    password: PBKDF2Params;',
    'export declare const SIGNIN_TOKEN = "/oauth2/v2.0/token";',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
  const redacted: Array<[string, string]> = [
    ['password: Xk95RG5OOySYxdZi', 'password: [REDACTED:code-secret]'],
    ['password: Summer2024', 'password: [REDACTED:code-secret]'],
    ['token: Xk95RG5OOySYxdZiToken', 'token: [REDACTED:code-secret]'],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
});

test('URL passwords with a slash, tokens as a URL user, Basic with an empty user, curl -ubob:pw and -u :pw are redacted', async () => {
  const pw = 'Xk95RG5OOySYxdZi';
  const pat = 'a7x2q4m9k3z5w6r8t2y4u6i8o2p4l6k8j2h4g6f8d2s4a6z8x2c4';
  const b64 = Buffer.from(`:${pw}`).toString('base64');
  const redacted: Array<[string, string]> = [
    [`postgres://app:ab/${pw}@db:5432/x`, 'postgres://app:[REDACTED:url-password]@db:5432/x'],
    [`redis://default:${pw}/x@redis:6379`, 'redis://default:[REDACTED:url-password]@redis:6379'],
    [
      `origin\thttps://${pat}@dev.azure.com/org/p/_git/r (fetch)`,
      'origin\thttps://[REDACTED:url-password]@dev.azure.com/org/p/_git/r (fetch)',
    ],
    [`Authorization: Basic ${b64}`, 'Authorization: Basic [REDACTED:basic-auth]'],
    [`curl -ubob:${pw} https://api.example.com`, 'curl -ubob:[REDACTED:curl-user] https://api.example.com'],
    [`curl -u :${pw} https://api.example.com`, 'curl -u :[REDACTED:curl-user] https://api.example.com'],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
  const kept = [
    'npm i https://registry.example.com:443/@scope/pkg',
    'http://localhost:3000/users/@alice',
    'git clone ssh://git@github.com/o/r.git',
    'curl --user-agent "a:b" https://x',
    'WARNING! Using --password via the CLI is insecure. Use --password-stdin.',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
  const args = JSON.stringify({ secret_name: 'NPM_TOKEN', secret_value: pw, token_value: pw });
  const out = await redactJsonText(
    args,
    async (s) => (await redactSecrets(s)).text,
    () => undefined,
  );
  assert.ok(!out.includes(pw), out);
  assert.ok(out.includes('"secret_name":"NPM_TOKEN"'), out);
});

test('tool-call arguments: string values redacted as decoded text, secret-named keys whole', async () => {
  const counts: Record<string, number> = {};
  const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;
  const args = JSON.stringify({ path: '.env', content: 'A=1\nDB_PASSWORD=hunter2-x9\n', headers: { password: 'pw' } });
  const out = JSON.parse(await redactJsonText(args, clean, (k) => (counts[k] = (counts[k] ?? 0) + 1))) as {
    content: string;
    headers: { password: string };
  };
  assert.equal(out.content, 'A=1\nDB_PASSWORD=[REDACTED:env-secret]\n');
  assert.equal(out.headers.password, '[REDACTED:secret-field]');
  assert.deepEqual(counts, { 'secret-field': 1 });
  const untouched = '{ "path": "a.txt",  "n": 1 }';
  assert.equal(
    await redactJsonText(untouched, clean, () => undefined),
    untouched,
    'formatting kept when nothing changed',
  );
  assert.equal(
    await redactJsonText('not json DB_PASSWORD=x1y2z3', clean, () => undefined),
    'not json DB_PASSWORD=[REDACTED:env-secret]',
  );
});

test('a key named __proto__ stays a property of the JSON written (tool-call arguments, a server schema)', async () => {
  const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;
  const schema = '{"type":"object","properties":{"__proto__":{"type":"string"},"token":{"type":"string"}}}';
  // Unchanged JSON is kept as written; with a secret beside it, the walk must keep the property too.
  const args = '{"__proto__":{"x":1},"note":"DB_PASSWORD=hunter2-x9"}';
  const out = JSON.parse(await redactJsonText(args, clean, () => undefined)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out), ['__proto__', 'note']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: 1 });
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  const written = JSON.stringify(await redactJson(JSON.parse(schema)));
  assert.equal(written, schema);
});

test('tool-call arguments nested too deeply to walk are redacted as text, never thrown on', async () => {
  const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;
  const token = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
  const depth = 20_000; // JSON.parse reads it; a recursive walk or JSON.stringify overflows the stack
  const args = `{"content":${'['.repeat(depth)}"A=1\\nDB_PASSWORD=hunter2-x9 ${token}"${']'.repeat(depth)}}`;
  const out = await redactJsonText(args, clean, () => undefined);
  assert.ok(!out.includes(token) && !out.includes('hunter2'), 'secrets redacted');
  assert.match(out, /\[REDACTED:github-token\]/);
  assert.equal(out.length < args.length, true);
  assert.ok(out.startsWith('{"content":[[['), 'the rest is kept as written');
});

test('user patterns: strings and {name, pattern}, a secret group, clear problems for bad entries', async (t) => {
  t.after(() => setCustomPatterns([]));
  const problems = setCustomPatterns([
    'TKT-[0-9]{6}',
    { name: 'session', pattern: 'session=(?<secret>[a-z0-9]+)' },
    '(unclosed',
    { pattern: 'x*' },
    { name: 'bad name!', pattern: 'y' },
    42,
  ]);
  assert.deepEqual(
    problems.map((p) => p.index),
    [2, 3, 4, 5],
  );
  assert.match(problems[0]!.message, /invalid regular expression "\(unclosed"/);
  assert.match(problems[1]!.message, /matches empty text/);
  const r = await redactSecrets('ticket TKT-123456 session=abc123 ok');
  assert.equal(r.text, 'ticket [REDACTED:custom] session=[REDACTED:session] ok');
  assert.deepEqual(
    setCustomPatterns('not a list').map((p) => p.index),
    [-1],
  );
});

test('every rule has an id, a title, keywords (or none for user patterns) and a global regex', () => {
  for (const r of BUILTIN_RULES) {
    assert.match(r.id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/, r.id);
    assert.ok(r.title.length > 0 && r.keywords.length > 0 && r.pattern.global, r.id);
    for (const k of r.keywords) assert.ok(k.length >= 2, `${r.id}: keyword ${k}`);
    // `within` reads the structure of the whole text, which only multiline rules are given.
    if (r.within) assert.ok(r.multiline, `${r.id}: within without multiline`);
  }
});

test("secretlint's recommended preset (the oracle) finds nothing in the corpus that the table leaves", async () => {
  const [{ lintSource }, preset] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]);
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] };
  const missed: string[] = [];
  let reported = 0;
  for (const e of CORPUS) {
    const result = await lintSource({
      source: { content: e.line, filePath: '', ext: '.txt', contentType: 'text' },
      options: { config, noPhysicFilePath: true },
    });
    const ours = (await redactSecrets(e.line)).text;
    for (const m of result.messages) {
      reported++;
      const found = e.line.slice(m.range[0], m.range[1]);
      if (ours.includes(found)) missed.push(`${e.format}: secretlint ${m.messageId} "${found.slice(0, 40)}"`);
    }
  }
  assert.ok(reported >= 40, `the oracle reports (${reported})`);
  assert.deepEqual(missed, []);
});

test('clipRedacted: redacts before it cuts, keeps whole markers, and reads past secrets that shrink the window', () => {
  const token = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
  const cutInside = `${'a '.repeat(50)}${token} tail`;
  const clipped = clipRedacted(cutInside, 120);
  assert.ok(clipped.length <= 120 && !clipped.includes(token.slice(0, 12)), clipped);
  assert.ok(!/\[REDACTED:[^\]]*$/.test(clipRedacted(cutInside, 105)), 'no half marker');
  assert.equal(clipRedacted('short ' + token, 100), 'short [REDACTED:github-token]');
  // 400 tokens (16,400 characters) redact to 9,600: a read of 9,750 + 8 KiB would end inside the key,
  // and the cut at 9,750 would keep its first lines.
  const key = CORPUS.find((e) => e.format === 'rsa-private-key')!;
  const many = `${`${token}\n`.repeat(400)}${key.line}\nafter`;
  const out = clipRedacted(many, 9750);
  assert.ok(out.length <= 9750 && out.includes('[REDACTED:private-key]'), out.slice(-100));
  assert.equal(leakedFormats(out, windowsOf([key])).size, 0, 'no line of the key body');
});

test('JSON redacted as written stays valid and keeps no secret, also four levels of JSON deep', async () => {
  // A tool's JSON (`once`), a log's tool call holding it (`twice`), a log of that log (a tool output
  // printing it: `thrice`), and that in a session's history (`fourfold`: an agent reading another
  // agent's log). A corpus line that is JSON itself is a level more there.
  const broken: string[] = [];
  for (const e of CORPUS)
    for (const [name, make] of Object.entries(CONTEXTS)) {
      if (!name.startsWith('json')) continue;
      const once = make(e)!;
      const twice = JSON.stringify({ arguments: once });
      const thrice = JSON.stringify({ log: twice });
      const fourfold = JSON.stringify({ log: thrice });
      const texts = /^\s*[[{]/.test(e.line) ? [once, twice, thrice] : [once, twice, thrice, fourfold];
      for (const [level, text] of texts.entries()) {
        const out = (await redactSecrets(text)).text;
        try {
          let doc = out;
          for (let k = 0; k <= level; k++) {
            const parsed = JSON.parse(doc) as Record<string, string>;
            doc = k === level ? '' : (parsed.log ?? parsed.arguments)!;
          }
        } catch {
          broken.push(`${name} ${level + 1}: ${e.format} broken`);
        }
        if (leakedFormats(out, windowsOf([e])).size > 0) broken.push(`${name} ${level + 1}: ${e.format} leaked`);
      }
    }
  assert.deepEqual(broken, []);
});

test('a rule anchored at a line start matches at every line start (the lines holding keywords are searched as one text)', () => {
  for (const rule of BUILTIN_RULES) {
    const outsideClasses = rule.pattern.source.replace(/\\./g, '').replace(/\[[^\]]*\]/g, '');
    if (outsideClasses.includes('^')) assert.ok(rule.pattern.flags.includes('m'), `${rule.id}: ^ without the m flag`);
  }
});

test('a URL password typed with blanks is redacted up to its host; prose with a URL and an address later stays', async () => {
  const U = '[REDACTED:url-password]';
  const redacted: Array<[string, string]> = [
    ['postgres://admin:my secret pw@db:5432/app', `postgres://admin:${U}@db:5432/app`],
    ['DATABASE_URL="postgres://admin:my secret pw@db"', `DATABASE_URL="postgres://admin:${U}@db"`],
    ['mongodb://root:correct horse@mongo/admin?authSource=admin', `mongodb://root:${U}@mongo/admin?authSource=admin`],
    ['mysql://root:p@ss w0rd!@localhost/db', `mysql://root:${U}@localhost/db`],
    ['redis://default:two words@cache', `redis://default:${U}@cache`],
    ['psql postgres://u:my pw@db:5432/app -c "select 1"', `psql postgres://u:${U}@db:5432/app -c "select 1"`],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
  const kept = [
    'see http://user:pass and then email me@host.com',
    'see http://user:pass and then email me@host.com/x',
    'open https://example.com:8080 and ask admin@example.com',
    'ftp://anon:guest user@ftp.example.com',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
});

test('a URL passphrase of five words or more is redacted where the URL is a value; prose stays', async () => {
  const U = '[REDACTED:url-password]';
  const redacted: Array<[string, string]> = [
    [
      'DATABASE_URL=postgres://admin:correct horse battery staple extra@db.example.com:5432/app',
      `DATABASE_URL=postgres://admin:${U}@db.example.com:5432/app`,
    ],
    ['proxy: "https://bob:one two three four five six@proxy.corp:3128"', `proxy: "https://bob:${U}@proxy.corp:3128"`],
    ['  url: https://bob:one two three four five@example.com/x', `  url: https://bob:${U}@example.com/x`],
    ['https://u:a b c d e f g@host.example/path', `https://u:${U}@host.example/path`],
    ['const u = `amqp://guest:this is a long pass phrase@rabbit`;', `const u = \`amqp://guest:${U}@rabbit\`;`],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
  const kept = [
    'see http://user:pass and then email me@host.com/x',
    'open https://example.com:8080 and then ask the admin@example.com/x',
    'url: https://example.com then mail ops at the desk@corp.com/x',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
});

test('hook URLs holding their key: Azure Functions ?code=, Zapier, IFTTT, Outlook connectors; their hosts stay', async () => {
  const outlookId = 'a1b2c3d4-e5f6-7890-abcd-ef1234567890';
  const redacted: Array<[string, string]> = [
    [
      'curl "https://myapp.azurewebsites.net/api/HttpTrigger1?code=aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdEFGH==&name=x"',
      'curl "https://myapp.azurewebsites.net/api/HttpTrigger1?code=[REDACTED:azure-function-key]&name=x"',
    ],
    [
      'https://myapp.azurewebsites.net/api/fn?clientId=default&code=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA%3D%3D',
      'https://myapp.azurewebsites.net/api/fn?clientId=default&code=[REDACTED:azure-function-key]',
    ],
    [
      'ZAP=https://hooks.zapier.com/hooks/catch/1234567/abc9xyz/',
      'ZAP=https://hooks.zapier.com/hooks/catch/[REDACTED:zapier-webhook]/',
    ],
    [
      'curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/dAbCdEfGhIjKlMnOpQrStU',
      'curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/[REDACTED:ifttt-webhook]',
    ],
    [
      `https://outlook.office.com/webhook/${outlookId}@${outlookId}/IncomingWebhook/0123456789abcdef0123456789abcdef/${outlookId}`,
      'https://outlook.office.com/webhook/[REDACTED:teams-webhook]',
    ],
  ];
  for (const [line, want] of redacted) assert.equal((await redactSecrets(line)).text, want, line);
  const kept = [
    'https://myapp.azurewebsites.net/api/HttpTrigger1',
    'https://myapp.azurewebsites.net/api/fn?code=',
    'https://hooks.zapier.com/hooks/catch/',
    'https://maker.ifttt.com/trigger/{event}/with/key/{your-key}',
    'https://outlook.office.com/mail/inbox',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
});

test("Render API keys and Mapbox secret tokens are redacted; Mapbox's public token and a name like them stay", async () => {
  const render = 'rnd_' + 'ivjRT73kjn7JZpsnrRtNXUcY9YWUUwpb';
  const mapbox = 'sk.' + 'eyJ1IjoiZXhhbXBsZSIsImEiOiJjbHgxMjM0NTYifQ.Zk8sP2qLmN4vX7rTq9w1Ab';
  for (const line of [
    `RENDER_KEY ${render}`,
    `curl -H "Authorization: Bearer ${render}"`,
    `mapboxgl.accessToken = x; // ${mapbox}`,
  ]) {
    const out = (await redactSecrets(line)).text;
    assert.ok(!out.includes(render.slice(4, 20)) && !out.includes(mapbox.slice(3, 40)), out);
  }
  const kept = [
    'const rnd_value = Math.random();',
    'pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbHgxMjM0NTYifQ.Zk8sP2qLmN4vX7rTq9w1Ab',
  ];
  for (const line of kept) assert.equal((await redactSecrets(line)).text, line, line);
});
