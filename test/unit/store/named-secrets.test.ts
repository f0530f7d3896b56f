// Secrets whose name is beside them, not before an `=`: name/value pairs (Kubernetes and ECS env lists,
// Postman, SSM, CloudFormation, HAR), secret-named objects holding a `value` (Terraform outputs, ARM
// parameters), Terraform variable defaults. Shapes from real manifests and CLI output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { SanitizingStream } from '../../../src/core/store/sanitize/pipeline';
import { assertStreamedAsWhole } from './helpers';

const clean = (s: string): string => redactSecretsSync(s).text;
const M = '[REDACTED:named-secret]';

test('a value named by its sibling field is redacted, the names and other fields stay', () => {
  const cases: [string, string][] = [
    [
      '        - name: POSTGRES_PASSWORD\n          value: "testpass123"',
      `        - name: POSTGRES_PASSWORD\n          value: "${M}"`,
    ],
    ['  - name: SMTP_PASS\n    value: mailP4ssw0rd', `  - name: SMTP_PASS\n    value: ${M}`],
    ["  - name: 'API_TOKEN'\n    value: 'quotedT0kenValue'", `  - name: 'API_TOKEN'\n    value: '${M}'`],
    // Another field of the same item between them.
    [
      '  - name: GH_TOKEN\n    description: the bot\n    value: botT0kenValue99',
      `  - name: GH_TOKEN\n    description: the bot\n    value: ${M}`,
    ],
    ['{"name": "DB_PASSWORD", "value": "ecsS3cretValue1"}', `{"name": "DB_PASSWORD", "value": "${M}"}`],
    [
      '{\n  "name": "DB_PASSWORD",\n  "value": "ecsPrettyS3cret"\n}',
      `{\n  "name": "DB_PASSWORD",\n  "value": "${M}"\n}`,
    ],
    [
      '{"key": "api_token", "value": "p0stmanS3cretV", "type": "secret", "enabled": true}',
      `{"key": "api_token", "value": "${M}", "type": "secret", "enabled": true}`,
    ],
    [
      '{"Name": "/prod/db/password", "Type": "SecureString", "Value": "ssmS3cretValue1", "Version": 3}',
      `{"Name": "/prod/db/password", "Type": "SecureString", "Value": "${M}", "Version": 3}`,
    ],
    [
      '[{"ParameterKey": "DBPassword", "ParameterValue": "cfnS3cretValue"}]',
      `[{"ParameterKey": "DBPassword", "ParameterValue": "${M}"}]`,
    ],
    ['{"value": "revers3dOrder9", "name": "api_token"}', `{"value": "${M}", "name": "api_token"}`],
    [
      '"db_password": {"sensitive": true, "type": "string", "value": "Tr0ub4dor&3xQ"},',
      `"db_password": {"sensitive": true, "type": "string", "value": "${M}"},`,
    ],
    ['"adminPassword": {"value": "armS3cretValue1"}', `"adminPassword": {"value": "${M}"}`],
    [
      'variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "hclDefaultS3cret"\n}',
      `variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "${M}"\n}`,
    ],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
  // A Vercel env record: a list between the value and its name.
  assert.equal(
    clean('{"type":"encrypted","value":"vercelS3cretVal9","target":["production","preview"],"key":"DB_PASSWORD"}'),
    `{"type":"encrypted","value":"${M}","target":["production","preview"],"key":"DB_PASSWORD"}`,
  );
  // Inside a JSON string (a tool's JSON result holding the manifest), the JSON stays valid.
  const manifest = '  - name: POSTGRES_PASSWORD\n    value: "testpass123"\n  - name: PGDATA\n    value: /data\n';
  const out = clean(JSON.stringify({ output: manifest }));
  assert.deepEqual(JSON.parse(out), {
    output: `  - name: POSTGRES_PASSWORD\n    value: "${M}"\n  - name: PGDATA\n    value: /data\n`,
  });
});

test('a HAR file: session cookies in headers and cookie lists go, other cookies and headers stay', () => {
  const har = JSON.stringify(
    {
      headers: [
        { name: 'Cookie', value: 'sessionid=8f2k3j4h5g6f7d8s9a0qwertyuiop; theme=dark' },
        { name: 'Cookie', value: 'theme=dark; lang=en' },
        { name: 'Accept', value: 'text/html' },
      ],
      cookies: [
        { name: 'sessionid', value: '8f2k3j4h5g6f7d8s9a0qwertyuiop', path: '/', httpOnly: true },
        { name: 'theme', value: 'dark' },
        { name: '_ga', value: 'GA1.1.123456789.1700000000' },
        { name: 'auth_token', value: 'short' },
      ],
    },
    null,
    2,
  );
  const out = JSON.parse(clean(har)) as { headers: { value: string }[]; cookies: { value: string }[] };
  assert.deepEqual(
    out.headers.map((h) => h.value),
    ['[REDACTED:cookie]', 'theme=dark; lang=en', 'text/html'],
  );
  assert.deepEqual(
    out.cookies.map((c) => c.value),
    ['[REDACTED:cookie]', 'dark', 'GA1.1.123456789.1700000000', 'short'],
  );
});

test('names that only look like it, references and stand-ins stay', () => {
  const lines = [
    // A reference to a Secret, then the next item's value (another name).
    '  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-secret\n        key: password\n  - name: LOG_LEVEL\n    value: debug',
    '  - name: OTHER_TOKEN\n    value: $(API_TOKEN)',
    '  - name: GH_TOKEN\n    value: "{{ .Values.token }}"',
    '  - name: TOKEN_FILE_SECRET\n    value: /etc/secrets/token',
    '  - name: POSTGRES_PASSWORD\n    value: xxxxxxxxx',
    '  - name: DB_HOST\n    value: db.internal',
    '{"name": "maxTokens", "value": "4096"}',
    '{"name": "token_url", "value": "https://auth.example.com/token"}',
    '{"name": "DB_PASSWORD", "value": "${DB_PASSWORD}"}',
    '{"name": "region", "value": "eu-west-1"}',
    'variable "region" {\n  default = "us-east-1"\n}',
    'variable "db_password" {\n  type = string\n}\nvariable "region" {\n  default = "us-east-1"\n}',
    '"db_password": {"sensitive": true, "type": "string"}',
    // Code about cookies (from hono), not a Cookie header.
    '\t\t\tcase "cookie": value = require_helper_cookie_index.getCookie(c);',
    '  readonly cookie: (c: Context, options: DetectorOptions) => string | undefined;',
    'export declare const parseSigned: (cookie: string, secret: string | BufferSource, name?: string) => Promise<SignedCookie>;',
  ];
  for (const text of lines) assert.equal(clean(text), text, text);
});

test('a pair split across the batches of a stream, or a flush between them, is still found (the last lines are held back)', async () => {
  const manifest =
    'spec:\n  containers:\n    - name: db\n      env:\n        - name: POSTGRES_USER\n          value: app\n' +
    '        - name: POSTGRES_PASSWORD\n          value: "streamedS3cret9"\n        - name: PGDATA\n' +
    '          value: /var/lib/postgresql/data\n'.repeat(3);
  // Past the first 8 KB, which are held whole to tell text from binary.
  const before = 'building layer 1 of 3 ... done\n'.repeat(300);
  for (let cut = 1; cut < manifest.length; cut += 5) {
    let out = '';
    const s = new SanitizingStream(
      async (t) => {
        out += t;
      },
      { ansi: 'strip', batchChars: 48 },
    );
    await s.push(before + manifest.slice(0, cut));
    await s.flush(); // what a terminal capture does on its timer
    await s.push(manifest.slice(cut));
    await s.end();
    assert.equal(out, before + manifest.replace('streamedS3cret9', M), `cut at ${cut}`);
  }
});

test('a pair is never split by the lines held back: a name just before them, or a few lines above its value, is held too', async () => {
  // Lines after it that name a secret keep the window held while the pair slides out of it.
  const after = 'the token is set\nthe key is set\n\nnull\n\n\n[]\n{}\n""\nfalse\n';
  const texts = [
    `        - name: DB_PASSWORD\n          value: "kgx0AN!M3RYG#31"\n${after}`,
    `variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "FSRA0N!mMTph#60"\n}\n${after}`,
  ];
  for (const text of texts) await assertStreamedAsWhole(text, [1, 3, 10], 128);
});

test('env records of platform APIs and YAML lists in other orders and styles: only a secret-named value goes', () => {
  const cases: [string, string][] = [
    // A name ending in a key's name that says secret (Stripe, Django, Rails).
    [
      '{"key":"STRIPE_SECRET_KEY","value":"zzTopS3cretValue","target":["production"],"type":"encrypted"}',
      `{"key":"STRIPE_SECRET_KEY","value":"${M}","target":["production"],"type":"encrypted"}`,
    ],
    ['{"name":"SECRET_KEY_BASE","value":"abc123def456ghi789"}', `{"name":"SECRET_KEY_BASE","value":"${M}"}`],
    // Vercel's record as its API lists it: five fields between the key and its value.
    [
      '{"id":"x1","key":"DB_PASSWORD","createdAt":1,"updatedAt":2,"createdBy":"u","updatedBy":null,"type":"encrypted","value":"vErcelPw99x"}',
      `{"id":"x1","key":"DB_PASSWORD","createdAt":1,"updatedAt":2,"createdBy":"u","updatedBy":null,"type":"encrypted","value":"${M}"}`,
    ],
    // Netlify's: every value of the list, per deploy context.
    [
      '{"key":"API_KEY","scopes":["builds"],"values":[{"id":"1","value":"mYapIkeyVal123","context":"production"},{"id":"2","value":"d3vApiKeyVal","context":"dev"}]}',
      `{"key":"API_KEY","scopes":["builds"],"values":[{"id":"1","value":"${M}","context":"production"},{"id":"2","value":"${M}","context":"dev"}]}`,
    ],
    // YAML, value first, quoted or not.
    ['env:\n  - value: hunter2\n    name: DB_PASSWORD', `env:\n  - value: ${M}\n    name: DB_PASSWORD`],
    [
      "env:\n  - value: 'hunter2'  # set by ops\n    name: 'DB_PASSWORD'\n  - value: 8080\n    name: PORT",
      `env:\n  - value: '${M}'  # set by ops\n    name: 'DB_PASSWORD'\n  - value: 8080\n    name: PORT`,
    ],
    // YAML's flow style.
    [
      'env: [{name: DB_PASSWORD, value: hunter2}, {name: PORT, value: "8080"}]',
      `env: [{name: DB_PASSWORD, value: ${M}}, {name: PORT, value: "8080"}]`,
    ],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
  const stay = [
    '{"key":"SITE_NAME","scopes":["builds"],"values":[{"id":"1","value":"my-site-2024","context":"all"}]}',
    '{"key":"API_KEY","values":[{"value":"${API_KEY}","context":"all"}]}',
    'env:\n  - value: "8080"\n    name: PORT',
    'env: [{name: LOG_LEVEL, value: debug2}]',
    '{"name":"secret_key_ref","value":"abc123def456ghi789"}',
  ];
  for (const text of stay) assert.equal(clean(text), text, text);
});

test("Doppler's secrets as its CLI prints them: raw and computed values go whatever the name; short numbers and other objects stay", () => {
  const cases: [string, string][] = [
    [
      '{"DATABASE_URL":{"computed":"postgres://u:pw@db/app","computedVisibility":"unmasked","note":"","raw":"postgres://u:Xk95pw@db/app","rawVisibility":"unmasked"}}',
      `{"DATABASE_URL":{"computed":"${M}","computedVisibility":"unmasked","note":"","raw":"${M}","rawVisibility":"unmasked"}}`,
    ],
    [
      '{\n  "STRIPE_KEY": {\n    "raw": "zZ9qStripeVal",\n    "computed": "zZ9qStripeVal",\n    "note": ""\n  },\n  "PORT": {\n    "raw": "8080",\n    "computed": "8080"\n  }\n}',
      `{\n  "STRIPE_KEY": {\n    "raw": "${M}",\n    "computed": "${M}",\n    "note": ""\n  },\n  "PORT": {\n    "raw": "8080",\n    "computed": "8080"\n  }\n}`,
    ],
  ];
  for (const [input, expected] of cases) assert.equal(clean(input), expected, input);
  const stay = [
    '{"raw": "abcDEF123ghi", "parsed": {"a": 1}}',
    '{"computed": "abcDEF123ghi", "cached": true}',
    '{"raw": "abcDEF123ghi"} and later {"computed": "xyzXYZ987abc"}',
  ];
  for (const text of stay) assert.equal(clean(text), text, text);
});

test("a JSON Schema's const under a secret-named property is redacted (an MCP tool's input schema); a type stays", () => {
  const schema = {
    type: 'object',
    properties: {
      api_token: { type: 'string', const: 'Zq8xLmT3vB9nK2wRpQ7s' },
      mode: { type: 'string', const: 'fast' },
    },
  };
  const out = JSON.parse(clean(JSON.stringify({ name: 'call', inputSchema: schema }, null, 2))) as {
    inputSchema: typeof schema;
  };
  assert.equal(out.inputSchema.properties.api_token.const, M);
  assert.deepEqual(out.inputSchema.properties.mode, schema.properties.mode);
  const typeOnly = JSON.stringify({ password: { type: 'string', const: '' } });
  assert.equal(clean(typeOnly), typeOnly);
});
