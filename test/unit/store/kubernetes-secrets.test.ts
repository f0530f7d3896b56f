// A Kubernetes Secret's values under any key name (`kubectl get secret -o yaml|json`, a manifest): gone
// from what is written, in one piece and streamed; a ConfigMap and other `data:` blocks stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertQuick } from '../../support/linear-time';
import fc from 'fast-check';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { streamInPieces } from './helpers';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const clean = async (text: string): Promise<string> => (await redactSecrets(text)).text;

/** Redacted through the stream, in pieces of `size` characters with a (not quiet) flush after each. */
const streamed = (text: string, size: number, batchChars?: number): Promise<string> =>
  streamInPieces(text, size, { batchChars });

const DB_URL = b64('postgres://app:s3cr3t-Pw@db:5432/app');
const CERT = b64(Buffer.alloc(900, 7));

/** A Secret as the API server sends it (`kubectl get --raw`, curl, client libraries): kind first. */
const apiSecret = (data: Record<string, string>, name = 'db'): Record<string, unknown> => ({
  kind: 'Secret',
  apiVersion: 'v1',
  metadata: {
    name,
    namespace: 'default',
    uid: '6c1f0b1e-3c55-4a8e-9f4e-2f1d5f0c7a11',
    creationTimestamp: '2026-11-01T10:00:00Z',
    labels: { app: 'api' },
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration':
        '{"apiVersion":"v1","kind":"Secret","metadata":{"annotations":{},"name":"db"}}\n',
    },
    managedFields: [{ manager: 'kubectl', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:pw': {} } } }],
  },
  data,
  type: 'Opaque',
});

/** A list as the API server sends it: its items carry no kind, only their type. */
const apiList = (data: Record<string, string>): Record<string, unknown> => {
  const item = (name: string): Record<string, unknown> => {
    const { kind, apiVersion, ...rest } = apiSecret(data, name);
    void [kind, apiVersion];
    return rest;
  };
  return { kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '4243' }, items: [item('a'), item('b')] };
};

/** The Python client's `pprint(secret.to_dict())`: single quotes, snake_case, kind after data. */
const pythonDict = (data: Record<string, string>): string =>
  `{'api_version': 'v1',\n 'data': {${Object.entries(data)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(',\n          ')}},\n 'immutable': None,\n 'kind': 'Secret',\n` +
  ` 'metadata': {'annotations': None,\n              'creation_timestamp': datetime.datetime(2026, 11, 1, 10, 0, tzinfo=tzutc()),\n` +
  `              'name': 'db'},\n 'string_data': None,\n 'type': 'Opaque'}`;

/** `kubectl get secret,configmap -o yaml`: a List, keys sorted, `kind: Secret` after the data. */
const KUBECTL_LIST = `apiVersion: v1
items:
- apiVersion: v1
  data:
    DATABASE_URL: ${DB_URL}
    admin: ${b64('hunter2')}
    "tls.crt": ${CERT}

    config.json: ${b64('{"debug":false}')}
  kind: Secret
  metadata:
    name: db
  type: Opaque
- apiVersion: v1
  data:
    APP_NAME: frontend
    PORT: "8080"
    COMMIT: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a
  kind: ConfigMap
  metadata:
    name: app
kind: List
`;

test('kubectl -o yaml: every value of a Secret goes, its key names and a ConfigMap stay', async () => {
  const out = await clean(KUBECTL_LIST);
  for (const key of ['DATABASE_URL', 'admin', '"tls.crt"', 'config.json'])
    assert.match(out, new RegExp(`^ {4}${key.replace('.', '\\.')}: \\[REDACTED:kubernetes-secret\\]$`, 'm'), key);
  for (const kept of ['APP_NAME: frontend', 'PORT: "8080"', 'COMMIT: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a'])
    assert.ok(out.includes(kept), kept);
  assert.equal(out.split('\n').length, KUBECTL_LIST.split('\n').length);
});

test('a manifest: data after kind, stringData with a block value; the lines after the block stay', async () => {
  const manifest = `apiVersion: v1
kind: Secret
metadata:
  name: api
type: Opaque
stringData:
  API_URL: https://svc:pa55@api.example.com
  settings.ini: |
    [db]
    password=Zq9-hunter
    # a comment line of the file
data:
  token: ${b64('tok-1234567890')}
  # a comment between entries
  other: '${b64('another value')}'
---
apiVersion: v1
kind: Service
metadata:
  name: api
`;
  const out = await clean(manifest);
  assert.ok(out.includes('  API_URL: [REDACTED:kubernetes-secret]\n'), out);
  assert.ok(out.includes('    [REDACTED:kubernetes-secret]\n    [REDACTED:kubernetes-secret]\n'), out);
  assert.ok(out.includes("  other: '[REDACTED:kubernetes-secret]'\n"), out);
  assert.ok(!out.includes(b64('tok-1234567890')) && !out.includes('Zq9-hunter') && !out.includes('pa55'), out);
  assert.ok(out.endsWith('---\napiVersion: v1\nkind: Service\nmetadata:\n  name: api\n'), out);
});

test('a Secret written in a string of code ends with the string: the code after it stays', async () => {
  // The manifest's line breaks are escapes (`\\n`); the lines after the string are code, indented deeper
  // than `stringData:` is in the string, and were redacted as the block's entries.
  const code = [
    'def test_secret():',
    '    manifest = "apiVersion: v1\\nkind: Secret\\nstringData:\\n  token: tok-1234567890\\n  db: pa55-word"',
    '    result = apply(manifest)',
    '    assert result.ok',
    '',
    'CONFIG = "db: x\\npassword: |\\n  Zq9-hunter-line"',
    '    other = compute(CONFIG)',
    '',
  ].join('\n');
  const out = await clean(code);
  assert.ok(!out.includes('tok-1234567890') && !out.includes('pa55-word') && !out.includes('Zq9-hunter'), out);
  assert.ok(out.includes('\n    result = apply(manifest)\n    assert result.ok\n'), out);
  assert.ok(out.includes('\n    other = compute(CONFIG)\n'), out);
});

test('kubectl -o json and its last-applied annotation; a JSON data object of another kind stays', async () => {
  const secret = JSON.stringify(
    {
      apiVersion: 'v1',
      data: { DATABASE_URL: DB_URL, admin: b64('hunter2') },
      kind: 'Secret',
      metadata: {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            apiVersion: 'v1',
            data: { DATABASE_URL: DB_URL },
            kind: 'Secret',
          }),
        },
      },
    },
    null,
    4,
  );
  const out = await clean(secret);
  assert.ok(!out.includes(DB_URL) && !out.includes(b64('hunter2')), out);
  assert.doesNotThrow(() => JSON.parse(out));
  assert.equal((JSON.parse(out) as { data: { admin: string } }).data.admin, '[REDACTED:kubernetes-secret]');
  const api = JSON.stringify({ kind: 'Status', data: { id: b64('hunter2'), name: 'Secret' } });
  assert.equal(await clean(api), api);
  const stringData = '{"kind":"Secret","stringData":{"password-file":"line one\\nline two","user":"bob"}}';
  assert.equal(
    await clean(stringData),
    '{"kind":"Secret","stringData":{"password-file":"[REDACTED:kubernetes-secret]","user":"[REDACTED:kubernetes-secret]"}}',
  );
});

test("the API server's order (kind first, metadata between) and its lists (items without a kind) go too", async () => {
  const data = { DATABASE_URL: DB_URL, admin: b64('hunter2') };
  for (const text of [
    JSON.stringify(apiSecret(data)),
    JSON.stringify(apiSecret(data), null, 2),
    JSON.stringify(apiList(data)),
  ]) {
    const out = await clean(text);
    assert.ok(!out.includes(DB_URL) && !out.includes(b64('hunter2')), out);
    assert.doesNotThrow(() => JSON.parse(out));
    assert.ok(out.includes('"DATABASE_URL":') && out.includes('"f:pw"'), out);
  }
  // Printed inside another JSON document (an agent's log holding the tool's output): the same.
  const log = JSON.stringify({ type: 'tool_result', content: JSON.stringify(apiSecret(data), null, 2) });
  const out = await clean(log);
  assert.ok(!out.includes(DB_URL) && !out.includes(b64('hunter2')), out);
  assert.doesNotThrow(() => JSON.parse(out));
  // A bare Secret (no annotation or label naming kubernetes.io) in a log, and in a log of that log: its
  // `\"kind\": \"Secret\"` as written is found too.
  const bare = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { DATABASE_URL: DB_URL } };
  const listed = { items: [{ metadata: { name: 'db' }, data: { DATABASE_URL: DB_URL }, type: 'Opaque' }] };
  const plain = { kind: 'Secret', stringData: { DB_URL: 'postgres://app:Hunter2x@db/app' } };
  for (const doc of [bare, listed, plain])
    for (const inner of [JSON.stringify(doc), JSON.stringify(doc, null, 2)]) {
      const once = JSON.stringify({ type: 'tool_result', content: inner });
      for (const text of [once, JSON.stringify({ log: once })]) {
        const got = await clean(text);
        assert.ok(!got.includes(DB_URL) && !got.includes('Hunter2x'), got);
        assert.doesNotThrow(() => JSON.parse(got));
      }
    }
});

test("the Python client's dict (single quotes) and a Secret after prose with apostrophes go", async () => {
  const out = await clean(pythonDict({ DATABASE_URL: DB_URL, 'tls.key': CERT }));
  assert.ok(!out.includes(DB_URL) && !out.includes(CERT), out);
  assert.ok(out.includes("'DATABASE_URL': '[REDACTED:kubernetes-secret]'"), out);
  const prose = `Here's what it's got: {"kind":"Secret","data":{"admin":"${DB_URL}"}} and that's it`;
  assert.equal(await clean(prose), prose.replace(DB_URL, '[REDACTED:kubernetes-secret]'));
});

test("a kind-first object of another kind, a ConfigMap list and a Secret's key names stay", async () => {
  const text = [
    JSON.stringify({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c' },
      data: { greeting: b64('hello there') },
    }),
    JSON.stringify({
      kind: 'ConfigMapList',
      items: [{ metadata: { name: 'c' }, data: { greeting: b64('hello there') } }],
    }),
    JSON.stringify({ kind: 'Status', data: { id: b64('hunter2') }, type: 'Opaque-ish' }),
    `{'kind': 'Event', 'data': {'message': '${b64('pod started')}'}}`,
  ].join('\n');
  assert.equal(await clean(text), text);
});

test('a minified list of Secrets on a line longer than the stream holds is cut between entries, never inside one', async () => {
  // Over 1 MiB on one line (curl from the API server): the stream cuts it, and a cut inside a string
  // left the next piece reading its quotes the wrong way round (883 of these values were left).
  const items = Array.from({ length: 12_000 }, (_, i) => ({
    metadata: {
      name: `s${i}`,
      namespace: 'default',
      uid: `6c1f0b1e-3c55-4a8e-9f4e-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
    },
    data: { pw: b64(`hunter-${i}-secretvalue`) },
    type: 'Opaque',
  }));
  const text = JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items });
  const out = await streamInPieces(text, 65_536, { flush: false });
  const left = items.filter((x) => out.includes(x.data.pw)).length;
  assert.equal(left, 0, `${left} of ${items.length} values left`);
  assert.equal((JSON.parse(out) as { items: unknown[] }).items.length, items.length);
});

test('other data: blocks stay: words, numbers, hashes and ids that only look like base64', async () => {
  const text = `data:
  name: frontend
  port: 8080
  enabled: true
  sha: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a
  id: abcd1234
metadata:
  labels:
    app: web
<img src="data:image/png;base64,iVBORw0KGgo=">
`;
  assert.equal(await clean(text), text);
});

test('streamed in pieces and in small batches, a Secret cut anywhere still goes whole', async () => {
  const big = Array.from({ length: 40 }, (_, i) => `    entry${i}: ${b64(`pw-${i}`.padEnd(6, 'x'))}`).join('\n');
  const list = KUBECTL_LIST.replace('    admin:', `${big}\n    admin:`);
  const once = await clean(list);
  for (const size of [7, 61, 997])
    for (const batch of [undefined, 512]) assert.equal(await streamed(list, size, batch), once, `${size}/${batch}`);
});

test('any values under any key names, in any layout, streamed in any pieces: none is left (property)', async () => {
  const key = fc.stringMatching(/^[A-Za-z_][\w.-]{0,20}$/);
  const value = fc.string({ minLength: 1, maxLength: 60 }).filter((v) => !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(v));
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: 8, selector: ([k]) => k }),
      fc.constantFrom('list', 'manifest', 'json', 'api', 'api-list', 'python'),
      fc.integer({ min: 1, max: 200 }),
      async (entries, layout, size) => {
        const values = entries.map(([k, v]) => [k, b64(v)] as const);
        const yaml = (indent: string): string => values.map(([k, v]) => `${indent}${k}: ${v}`).join('\n');
        const text =
          layout === 'list'
            ? `items:\n- apiVersion: v1\n  data:\n${yaml('    ')}\n  kind: Secret\nkind: List\n`
            : layout === 'manifest'
              ? `apiVersion: v1\nkind: Secret\ndata:\n${yaml('  ')}\n`
              : layout === 'json'
                ? `${JSON.stringify({ apiVersion: 'v1', data: Object.fromEntries(values), kind: 'Secret' }, null, 2)}\n`
                : layout === 'api'
                  ? `${JSON.stringify(apiSecret(Object.fromEntries(values)), null, 2)}\n`
                  : layout === 'api-list'
                    ? `${JSON.stringify(apiList(Object.fromEntries(values)))}\n`
                    : `${pythonDict(Object.fromEntries(values))}\n`;
        const out = await streamed(text, size, 256);
        for (const [k, v] of values) {
          // A value that decodes to text is gone (one that is only 4 characters of base64 may be a word).
          if (v.length >= 8)
            assert.ok(
              !out.includes(`: ${v}`) && !out.includes(`"${v}"`) && !out.includes(`'${v}'`),
              `${k}: ${v}\n${out}`,
            );
          assert.ok(out.includes(k), `key ${k} kept`);
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('strings that are only a bracket and a colon before a minified Secret are strings, not JSON held in one', async () => {
  // A boosted property run found it: `"{",":"` read as an object opening inside a string with the key `,`.
  for (const around of [{ a: ['{', ':'] }, { '': ['{', ', ', ':'] }, { a: ['{', ':'], b: 1 }])
    for (const indent of [undefined, 2]) {
      const item = { kind: 'Secret', metadata: { name: 'x', around }, data: { 'ca.crt': b64('pw-hunter2!') } };
      const out = await clean(JSON.stringify({ kind: 'List', items: [item] }, null, indent));
      assert.ok(!out.includes(b64('pw-hunter2!')), out);
      assert.doesNotThrow(() => JSON.parse(out), out);
    }
});

test('JSON Secrets among any other JSON, kind first, after or by type only, pretty or minified, streamed in any pieces: none is left (property)', async () => {
  const secret = fc.record({
    keys: fc.uniqueArray(fc.stringMatching(/^[A-Za-z_][\w.-]{0,15}$/), { minLength: 1, maxLength: 4 }),
    values: fc.array(fc.stringMatching(/^[A-Za-z0-9!@#%^&*()_+=-]{6,30}$/), { minLength: 4, maxLength: 4 }),
    order: fc.constantFrom('kind-first', 'kind-after', 'type-only'),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(secret, fc.jsonValue({ maxDepth: 3 })), { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 300 }),
      async (parts, pretty, size) => {
        const values: string[] = [];
        const items = parts.map(([s, around]) => {
          const data = Object.fromEntries(s.keys.map((k, i) => [k, b64(`pw-${s.values[i]!}`)]));
          values.push(...Object.values(data));
          const metadata = { name: 'x', around };
          const item =
            s.order === 'kind-first'
              ? { kind: 'Secret', apiVersion: 'v1', metadata, data, type: 'Opaque' }
              : s.order === 'kind-after'
                ? { apiVersion: 'v1', data, kind: 'Secret', metadata }
                : { metadata, data, type: 'Opaque' };
          return { around, item };
        });
        const text = `${JSON.stringify({ kind: 'SecretList', items }, null, pretty ? 2 : undefined)}\n`;
        const whole = await clean(text);
        const out = await streamed(text, size, 256);
        for (const v of values) {
          assert.ok(!whole.includes(`"${v}"`), `whole: ${v}\n${whole}`);
          assert.ok(!out.includes(`"${v}"`), `streamed in ${size}: ${v}\n${out}`);
        }
        assert.doesNotThrow(() => JSON.parse(whole));
      },
    ),
    { numRuns: 150 },
  );
});

test('a line padded with blanks or a run of open objects is read in linear time (a loose bound: minutes before, under a second now)', async () => {
  const started = performance.now();
  const padded = `kind: Secret\nstringData:\n  key: a${' '.repeat(200_000)}b\n  other:${' x'.repeat(100_000)}\n`;
  assert.equal(
    await clean(padded),
    'kind: Secret\nstringData:\n  key: [REDACTED:kubernetes-secret]\n  other: [REDACTED:kubernetes-secret]\n',
  );
  const nested = `{"kind":"Secret",${'"data": {'.repeat(200_000)}`;
  assert.equal(await clean(nested), nested);
  // A string that never closes, of escaped quotes (each was read again to the line's end: 62 s).
  const unclosed = `"Secret": "${'\\"'.repeat(100_000)}`;
  assert.equal(await clean(unclosed), unclosed);
  // Brackets that close nothing, or everything at once; a list of 20,000 Secrets.
  const brackets = `${'{"data": ['.repeat(100_000)}${']'.repeat(100_000)}${'}'.repeat(200_000)}`;
  assert.equal(await clean(brackets), brackets);
  const many = JSON.stringify(apiList({ pw: DB_URL })).replace(
    /"items":\[(.*)\]/,
    (_, item: string) => `"items":[${Array(10_000).fill(item).join(',')}]`,
  );
  assert.ok(!(await clean(many)).includes(DB_URL));
  assertQuick(started);
});
