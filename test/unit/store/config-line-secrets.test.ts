// A secret-named key at a config line's start owns the rest of the line: passwords with the characters
// code-shaped rules stop at (`, ; ) } ] & | ' "`) are redacted whole, in every config syntax.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isPlaceholder, looksLikeName, looksLikePattern } from '../../../src/core/store/sanitize/rules/types';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { streamInPieces } from './helpers';
import { pythonRepr } from '../../support/secret-corpus';

const clean = (s: string): string => redactSecretsSync(s).text;

const ALNUM = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const SYMBOLS = '!@#$%^&*()_+-=[]{}|;:,.<>?/~\\\'"`';

/**
 * A password as people make them: letters and digits with symbols anywhere but first. Left out: what
 * reads as something else on its own line (a call `name(…)`, an index,
 * a generic type `Name<…>` or `a.b<`, a keyword first (`not,…`),
 * a bracket before a quote `("`, `["`, a name (`a?.b`) or a regex (`\S\d`), a reference, a quote that would close a JSON
 * string: `"}`), a stand-in (`my_…`).
 */
const readsAsPassword = (p: string): boolean =>
  !/^[A-Za-z_$][\w$.?]*[([]/.test(p) &&
  !/^[A-Za-z_$][\w$.?]*<.*>(?:\[\])*[?;,)]*$/.test(p) &&
  !/^[A-Za-z_$][\w$]*\.[\w$.]*</.test(p) &&
  !/^(?:new|await|yield|typeof|lambda|function|async|not)\b/.test(p) &&
  !looksLikeName(p) &&
  !looksLikePattern(p) &&
  !isPlaceholder(p) &&
  !/\$\{|\{\{|[[(]["']|"[ \t]*(?:[,}\]:]|$)/.test(p);
const password = fc
  .tuple(
    fc.constantFrom(...ALNUM),
    fc.array(fc.constantFrom(...ALNUM, ...SYMBOLS), { minLength: 9, maxLength: 30 }),
    fc.constantFrom(...'23456789'),
  )
  .map(([first, rest, digit]) => first + rest.join('') + digit)
  .filter(readsAsPassword);

/** A value with its `%XX` decoded. */
const percentDecoded = (p: string): string =>
  p.replace(/%[0-7][0-9A-Fa-f]/g, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));

/**
 * Config lines. After a plain key and `=` without blanks a value may also be a form body's field or a
 * connection string's part (`password=…&grant_type=…`, `…;Server=…`), so there a password holding
 * `&name=` or `;name=` is left out; everywhere else the value is the whole rest of the line.
 */
const SYNTAXES: [string, (p: string) => string, 'whole' | 'field'][] = [
  ['.env', (p) => `DB_PASSWORD=${p}`, 'whole'],
  ['.env export', (p) => `export STRIPE_SECRET=${p}`, 'whole'],
  ['Dockerfile', (p) => `ENV ADMIN_TOKEN=${p}`, 'whole'],
  ['compose list', (p) => `      - POSTGRES_PASSWORD=${p}`, 'whole'],
  ['YAML', (p) => `  password: ${p}`, 'whole'],
  ['YAML camelCase', (p) => `    clientSecret: ${p}`, 'whole'],
  ['YAML upper-case', (p) => `  DB_PASSWORD: ${p}`, 'whole'],
  ['.properties', (p) => `spring.datasource.password=${p}`, 'whole'],
  ['.properties camelCase', (p) => `app.mail.smtpPassword=${p}`, 'whole'],
  ['INI', (p) => `smtp_pass = ${p}`, 'whole'],
  ['form field', (p) => `password=${p}`, 'field'],
  ['Makefile', (p) => `API_KEY ?= ${p}`, 'whole'],
];

/** The passwords a syntax's line is sure to hold whole. */
const passwordFor = (holds: 'whole' | 'field'): fc.Arbitrary<string> =>
  holds === 'whole' ? password : password.filter((p) => !/[&;][\w.-]+=/.test(p));

/** Any 5 characters of the password still in the text. */
const leaked = (p: string, out: string): boolean =>
  Array.from({ length: p.length - 4 }, (_, i) => p.slice(i, i + 5)).some((w) => out.includes(w));

test('a password with any symbols on a config line is redacted whole, its key kept (property)', () => {
  for (const [name, line, assign] of SYNTAXES) {
    fc.assert(
      fc.property(passwordFor(assign), (p) => {
        const out = clean(line(p));
        assert.ok(!leaked(p, out), `${name}: ${out}`);
        assert.match(out, /\[REDACTED:(?:env|code)-secret\]$/, `${name}: ${out}`);
      }),
      { numRuns: 150 },
    );
  }
});

test('the same lines inside a JSON string and as a quoted docker -e value', () => {
  // JSON in JSON is decoded too, so inside a JSON string `\\r` reads as a line break: no backslashes here.
  // Its lines are also read with `%XX` decoded, where a value may read as code (`[%22` as an index's
  // `["`, `%28` at the end as a call's `(`): values holding one are left out here, the test above has them.
  fc.assert(
    fc.property(
      passwordFor('whole').filter((p) => !p.includes('\\') && percentDecoded(p) === p),
      (p) => {
        const json = JSON.stringify({ path: '.env', content: `A=1\nDB_PASSWORD=${p}\nB=2` });
        const out = clean(json);
        assert.ok(!leaked(JSON.stringify(p).slice(1, -1), out), out);
        assert.doesNotThrow(() => JSON.parse(out), out);
        if (!p.includes('"')) {
          const docker = clean(`docker run -e "POSTGRES_PASSWORD=${p}" postgres:16`);
          assert.equal(docker, 'docker run -e "POSTGRES_PASSWORD=[REDACTED:env-secret]" postgres:16');
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('a secret on the first line of a JSON string ends at its escaped line break: the other lines stay', () => {
  // `"content":"DB_PASSWORD=…\nDB_HOST=…"` as written: the string's start is a line start, and the
  // rest-of-line value used to run on through every `\n` to the closing quote.
  const after = '\nDB_HOST=localhost\r\nDB_PORT=5432\nDEBUG=true';
  for (const [name, line, assign] of SYNTAXES) {
    fc.assert(
      fc.property(
        passwordFor(assign).filter((p) => !p.includes('\\')),
        (p) => {
          const out = clean(JSON.stringify({ role: 'tool', content: line(p) + after }));
          const content = (JSON.parse(out) as { content: string }).content;
          assert.ok(!leaked(p, content), `${name}: ${out}`);
          assert.ok(content.endsWith(`-secret]${after}`), `${name}: ${out}`);
          // The same JSON inside a log's JSON string (a tool call's arguments): as written, its closing
          // `\"` and `\\n` read as escapes and the value ran to the line's end, breaking the JSON.
          const nested = clean(JSON.stringify({ arguments: JSON.stringify({ content: line(p) + after, n: 1 }) }));
          const args = JSON.parse((JSON.parse(nested) as { arguments: string }).arguments) as { content: string };
          assert.ok(!leaked(p, args.content), `${name}: ${nested}`);
          assert.ok(args.content.endsWith(`-secret]${after}`), `${name}: ${nested}`);
        },
      ),
      { numRuns: 60 },
    );
  }
  // An escaped backslash before an `n` is part of the password, not a line break.
  assert.equal(
    clean(String.raw`{"content":"DB_PASSWORD=Xk9\\nq2Lm7vPz\nPORT=5432"}`),
    String.raw`{"content":"DB_PASSWORD=[REDACTED:env-secret]\nPORT=5432"}`,
  );
  assert.equal(
    clean(String.raw`["API_TOKEN=hunter2xyz9\nDB_HOST=localhost"]`),
    String.raw`["API_TOKEN=[REDACTED:env-secret]\nDB_HOST=localhost"]`,
  );
});

test("a file printed in a string: its first line starts a line for the rules anchored at one (JSON, Python's repr, JSON in JSON)", () => {
  // Each file's first line is what a rule needs at a line's start: only the string's quote was before it.
  const files: [string, string, string][] = [
    ['YAML block scalar', 'password: |\n  Hunter2-blk9\n  second-Xq7\nuser: bob\n', 'Hunter2-blk9|second-Xq7'],
    ['env list', '- name: DB_PASSWORD\n  value: Hunter2-env9\n- name: PORT\n  value: "5432"\n', 'Hunter2-env9'],
    [
      'Secret data',
      `data:\n  DATABASE_URL: ${btoa('postgres://app:Hunter2-k8s9@db/app')}\n`,
      btoa('postgres://app:Hunter2-k8s9@db/app'),
    ],
    ['netrc line', 'password Hunter2-netrc9\nlogin bob\n', 'Hunter2-netrc9'],
    ['rclone', 'pass = Hunter2-rclone9\nuser = bob\n', 'Hunter2-rclone9'],
  ];
  for (const [name, file, secret] of files) {
    const contexts: [string, string, (out: string) => string][] = [
      ['JSON', JSON.stringify({ path: 'f', content: file }), (o) => (JSON.parse(o) as { content: string }).content],
      ['Python repr', `{'path': 'f', 'content': ${pythonRepr(file)}}`, (o) => o],
      [
        'JSON in JSON',
        JSON.stringify({ arguments: JSON.stringify({ content: file }) }),
        (o) => (JSON.parse((JSON.parse(o) as { arguments: string }).arguments) as { content: string }).content,
      ],
    ];
    for (const [where, text, content] of contexts) {
      const out = clean(text);
      assert.ok(!new RegExp(secret.replace(/[+/=]/g, '\\$&')).test(out), `${name} in ${where}: ${out}`);
      const kept = content(out);
      assert.ok(kept.includes('[REDACTED:'), `${name} in ${where}: ${out}`);
      // Only the secret's lines changed: the keys and the other lines are kept.
      const secrets = secret.split('|');
      for (const line of file.split('\n').filter((l) => !secrets.some((x) => l.includes(x))))
        assert.ok(kept.includes(line), `${name} in ${where}: ${line} in ${out}`);
    }
  }
});

test('a dotted value with a part of mixed case and digits is a password or a token, not a member name', () => {
  const secrets: [string, string][] = [
    ['export VAULT_TOKEN=s.Qf1s5zigZ4hHkN8yyIkbBk12', 's.Qf1s5zigZ4hHkN8yyIkbBk12'],
    ['password: Spring.Time42', 'Spring.Time42'],
    ['{"password": "Company.Admin1"}', 'Company.Admin1'],
    ['DB_PASSWORD="Winter.Is.Coming7"', 'Winter.Is.Coming7'],
  ];
  for (const [line, secret] of secrets) assert.ok(!clean(line).includes(secret), clean(line));
  // Member names keep being names: words, snake_case, a version suffix without capitals.
  for (const name of ['config.apiKey', 'process.env.API_TOKEN', 'settings.oauth2Token', 'v1.token'])
    assert.equal(looksLikeName(name), true, name);
});

test('a Vault legacy token with fewer than three digits is a token too (one in four of them)', () => {
  const token = 's.Z2yJspVPbWS4ZVMVdKKJaMmv';
  // As `.env` holds it, and as `vault token create -format=json` prints it.
  for (const line of [
    `VAULT_TOKEN=${token}`,
    `{"auth": {"client_token": "${token}", "accessor": "x"}}`,
    `token: ${token}`,
  ])
    assert.ok(!clean(line).includes(token), clean(line));
  // Long member names with a digit stay names: their capitals start words of two or more letters.
  for (const name of ['this.userIdToken2Provider', 'config.maxRetries2ForHttpClient', 'state.getUiState2Snapshot'])
    assert.equal(looksLikeName(name), true, name);
});

test('lines that only look like it stay: code, references, prose, lists of settings', () => {
  const lines = [
    'password = getPassword(user)',
    "SECRET_KEY = os.environ['SECRET_KEY']",
    'token = response.json()["access_token"]',
    'config.secret_key_base = ENV.fetch("SECRET_KEY_BASE")',
    '  token: getToken(),',
    '  password: hash,',
    '  apiKey: process.env.API_KEY,',
    '  token: string;',
    'password: str = "x"',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'export GITHUB_TOKEN=$(gh auth token)',
    '- password: the user password, at least 12 characters',
    'password_min_length = 12',
    'token_url = https://auth.example.com/token',
    'POSTGRES_PASSWORD_FILE=/run/secrets/db',
    'tiktoken==0.7.0',
    'password = None',
    'password:',
    // Found in Python's standard library and npm packages (names, calls, types, regexes, formats).
    "_CASE_INSENSITIVE_PLATFORMS_STR_KEY = 'win',",
    "        comment_token = line[pos:].rstrip('\\r\\n')",
    '        cls._test_support_token = support.ignore_deprecations_from(',
    "            credentials = '{0}:{1}'.format(user, passwd).encode()",
    // A string's first line read alone (netrc.py writes a .netrc): a format field, not a password.
    '            rep += f"\\tpassword {attrs[2]}\\n"',
    '    AttributeOID.CHALLENGE_PASSWORD: "challengePassword",',
    "        ResourceEndpoint.__init__(self, default_token='Bearer',",
    'HEX_PAT = "[0-9A-Fa-f]{1,4}"',
    "jsonnet_token = r'[^\\W\\d]\\w*'",
    '    id_token: z.ZodOptional<z.ZodString>;',
    '                request_token=request.resource_owner_key):',
    '        access_token = AccessToken("key", "secret")',
    '        passphrase = _text_to_bytes_and_warn("passphrase", passphrase)',
    'IPV6_PAT = "(?:" + "|".join([x % _subs for x in _variations]) + ")"',
    '    progressToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodNumber]>>;',
    '        Token:                      "#d8dee9",',
    // An attribute set from a name, a name set to itself, a version or OID, an expression.
    '                        self.token = nextchar',
    '        self.credentials = credentials',
    '        self._passphrase = passphrase',
    '        self.username, self.password = credentials',
    '    this.apiKey = key;',
    '    @password = password',
    'credentials = credentials',
    "    SERVER_AUTH = '1.3.6.1.5.5.7.3.1'",
    'PseudoToken = Whitespace + group(PseudoExtras, Number, Funny, ContStr, Name)',
    "        apiKey = provider ? null : readEnv('OPENAI_API_KEY') ?? null,",
    // Found in Python's library and openai: names, prose, keywords and expressions after a secret word.
    '        authorization = authorization.split()',
    '            authorization = base64.decodebytes(authorization).\\',
    'password combination.',
    '    """Set default password for encrypted files."""',
    '    # the default password callback if you pass an encrypted private',
    '"Settings take the form KEY=VALUE. Use multiple --config-settings options "',
    '                self._password = handler.password',
    '_Webhooks_instances = new WeakSet(), _Webhooks_validateSecret = function _Webhooks_validateSecret(secret) {',
    '            apiKey: azureADTokenProvider ?? apiKey,',
  ];
  for (const line of lines) assert.equal(clean(line), line, line);
  // The password file and header shapes those lines resemble are still redacted.
  assert.equal(
    clean('default login anonymous password guest@Example9'),
    'default login anonymous password [REDACTED:netrc-password]',
  );
  assert.equal(
    clean('//registry.npmjs.org/:_password=cGFzc3dvcmQxMjM='),
    '//registry.npmjs.org/:_password=[REDACTED:npmrc-auth]',
  );
  assert.equal(clean('X-Api-Key: abcDEF1234567890xyz'), 'X-Api-Key: [REDACTED:api-key-header]');
  // Quoted, an attribute's value is a literal: redacted.
  assert.equal(clean('    self.password = "hunter2xyz9"'), '    self.password = "[REDACTED:code-secret]"');
  assert.equal(clean("    this.apiKey = 'k3yValue-99';"), "    this.apiKey = '[REDACTED:code-secret]';");
  // A form body: the token is its own rule's, the other settings stay.
  assert.equal(
    clean('refresh_token=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&grant_type=refresh_token'),
    'refresh_token=[REDACTED:github-token]&grant_type=refresh_token',
  );
  assert.equal(clean('password=s3cr3tXy&client_id=foo'), 'password=[REDACTED:code-secret]&client_id=foo');
});

test('overlapping finds become one marker, named by the first', () => {
  // code-secret stops at the comma, the line rule goes on to the end: one marker, not two.
  assert.equal(clean('  password: ab,cd)ef9'), '  password: [REDACTED:code-secret]');
});

test("a YAML block scalar under a secret's key is redacted line by line, in one piece and streamed; tags are not values", async () => {
  const text = [
    'auth:',
    '  password: |',
    '    Hunter2-blk',
    '  client_secret: >-',
    '    Zk8sP2qLmN4vX7rT',
    '    continued-line',
    '',
    '  apiKey: !!binary |',
    '    UGFzc3dvcmQxMjM=',
    '  user: bob',
    'token: !!str 0123456789',
    'description: |',
    '  the token and the password go here',
    'secret_ref: |',
    '  kept',
    'api_key: |',
    '  ${API_KEY}',
    '',
  ].join('\n');
  const want = text
    .replace('Hunter2-blk', '[REDACTED:code-secret]')
    .replace('Zk8sP2qLmN4vX7rT', '[REDACTED:code-secret]')
    .replace('continued-line', '[REDACTED:code-secret]')
    .replace('UGFzc3dvcmQxMjM=', '[REDACTED:code-secret]')
    .replace('0123456789', '[REDACTED:code-secret]');
  assert.equal(clean(text), want);
  // Cut anywhere, a block keeps its key: the stream holds it back until the block ends.
  const long = `password: |\n${Array.from({ length: 30 }, (_, i) => `  line-${i}-Xq9`).join('\n')}\nnext: 1\n`;
  for (const size of [5, 37, 200]) {
    const out = await streamInPieces(long, size, { batchChars: 64 });
    assert.ok(!/line-\d+-Xq9/.test(out), `${size}: ${out}`);
    assert.ok(out.endsWith('next: 1\n'), out);
  }
});

test("a YAML plain scalar on the lines after a secret's key is redacted; a map or list under the key, code and prose stay", async () => {
  const C = '[REDACTED:code-secret]';
  const cases: [string, string][] = [
    ['password:\n  hunter2x9', `password:\n  ${C}`],
    ['db:\n  password:\n    hunter2x9\n  user: app', `db:\n  password:\n    ${C}\n  user: app`],
    ['token:\n  abcDEF123ghi # rotated monthly', `token:\n  ${C} # rotated monthly`],
    ['secret:\n  abcDEF123ghi\n', `secret:\n  ${C}\n`],
    ['- api_key:\n    abcDEF123ghi', `- api_key:\n    ${C}`],
    ['DB_PASSWORD:\n  "hunter2x9"\nport: 5432', `DB_PASSWORD:\n  "${C}"\nport: 5432`],
    // A plain scalar over two lines (YAML folds them into one value).
    ['password:\n    hunter2x9\n    foldedPart7\nnext: 1', `password:\n    ${C}\n    ${C}\nnext: 1`],
    // A file printed in a JSON string: the JSON stays valid.
    [
      JSON.stringify({ content: 'db:\n  password:\n    hunter2x9\n  host: db\n' }),
      JSON.stringify({ content: `db:\n  password:\n    ${C}\n  host: db\n` }),
    ],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
  const stay = [
    'password:\n  min_length: 8\n  require_digit: true',
    'password:\n  - hunter2x9',
    'password:\n  required',
    'Token:\n  Use the token from your settings page.',
    'tiktoken:\n  abcDEF123ghi',
    '  apiKey:\n    options.apiKey ?? "default",',
    '  password:\n    cond ? a : b,',
    '  token:\n    string;',
    '  password:\n    process.env.DB_PASSWORD,',
    'api_key:\n  ${API_KEY}',
  ];
  for (const text of stay) assert.equal(clean(text), text, text);
  // Streamed, the value in a later batch than its key.
  for (const size of [3, 11, 40]) {
    const out = await streamInPieces('db:\n  password:\n    hunter2x9\n  host: db\n', size, { batchChars: 16 });
    assert.equal(out, `db:\n  password:\n    ${C}\n  host: db\n`, `${size}`);
  }
});

test('a YAML block in a string of code, its key past the first line: the string keeps its closing quote and the code after it', () => {
  const C = '[REDACTED:code-secret]';
  const cases: [string, string][] = [
    ['x = "a: 1\\npassword: |\\n  Zq9xPw3rTyUi"\ny = 2', `x = "a: 1\\npassword: |\\n  ${C}"\ny = 2`],
    [
      'const s = "db:\\n  password: |\\n    Zq9xPw3rTyUi"; const t = 1;',
      `const s = "db:\\n  password: |\\n    ${C}"; const t = 1;`,
    ],
    ["x = 'a: 1\\npassword: |\\n  Zq9xPw3rTyUi', y", `x = 'a: 1\\npassword: |\\n  ${C}', y`],
    ['{"content": "a: 1\\npassword: |\\n  Zq9xPw3rTyUi"}', `{"content": "a: 1\\npassword: |\\n  ${C}"}`],
    // A quote of the other kind and an escaped one are the value's.
    ['x = "a: 1\\npassword: |\\n  Zq9\'x\\"Pw3r"\ny = 2', `x = "a: 1\\npassword: |\\n  ${C}"\ny = 2`],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
});

test('a block scalar whose key opens a template literal is redacted up to the closing backtick; the code after stays', async () => {
  const C = '[REDACTED:code-secret]';
  const cases: [string, string][] = [
    ['const cfg = `password: |\n  Zq9xPw3rTyUi\n  second-Line7\n`;', `const cfg = \`password: |\n  ${C}\n  ${C}\n\`;`],
    // Laid out with the code (a dedent tag): the closing line is indented deeper than the key's column.
    [
      '    const y = dedent`client_secret: >-\n      Zk8sP2qLmN4vX7rT\n    `;\n    run(y);',
      `    const y = dedent\`client_secret: >-\n      ${C}\n    \`;\n    run(y);`,
    ],
    ['f(`token: |\n  Zq9xPw3rTyUi`, opts);', `f(\`token: |\n  ${C}\`, opts);`],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
  // Inline code in prose names the key; it is no block.
  const stay = ['Write `password: |` and indent the value below it:\n  like this'];
  for (const text of stay) assert.equal(clean(text), text, text);
  for (const size of [5, 23]) {
    const out = await streamInPieces('const cfg = `password: |\n  Zq9xPw3rTyUi\n`;\nnext();\n', size, {
      batchChars: 16,
    });
    assert.equal(out, `const cfg = \`password: |\n  ${C}\n\`;\nnext();\n`, `${size}`);
  }
});

test('a description under a secret-named key in a docstring stays; a value of one word or quoted still goes', () => {
  const C = '[REDACTED:code-secret]';
  const stay = [
    'Args:\n    password:\n        user login password\n    port: the port\n',
    '    token:\n        optional bearer token\n',
    'parameters:\n  password:\n    Hashed password string.\n',
    '    password:\n        plain text password, never logged\n',
  ];
  for (const text of stay) assert.equal(clean(text), text, text);
  const cases: [string, string][] = [
    ['password:\n  hunter2x9', `password:\n  ${C}`],
    ['password:\n  c0rrect horse battery', `password:\n  ${C}`],
    // Diceware: plain words that neither name what they describe nor end as a sentence.
    ['password:\n  correct horse battery staple', `password:\n  ${C}`],
    ['  secret:\n    tidy ocean lamp violin gravel', `  secret:\n    ${C}`],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
});
