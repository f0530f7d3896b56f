// A Kubernetes Secret's values under any key name (`kubectl get secret -o yaml|json`, a manifest): gone
// from what is written, in one piece and streamed; a ConfigMap and other `data:` blocks stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertQuick } from '../../support/linear-time';
import fc from 'fast-check';
import { SanitizingStream } from '../../../src/core/store/sanitize/pipeline';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const clean = async (text: string): Promise<string> => (await redactSecrets(text)).text;

/** Redacted through the stream, in pieces of `size` characters with a (not quiet) flush after each. */
async function streamed(text: string, size: number, batchChars?: number): Promise<string> {
  let out = '';
  const s = new SanitizingStream(async (t) => void (out += t), {
    ansi: 'strip',
    ...(batchChars ? { batchChars } : {}),
  });
  for (let i = 0; i < text.length; i += size) {
    await s.push(text.slice(i, i + size));
    await s.flush();
  }
  await s.end();
  return out;
}

const DB_URL = b64('postgres://app:s3cr3t-Pw@db:5432/app');
const CERT = b64(Buffer.alloc(900, 7));

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
      fc.constantFrom('list', 'manifest', 'json'),
      fc.integer({ min: 1, max: 200 }),
      async (entries, layout, size) => {
        const values = entries.map(([k, v]) => [k, b64(v)] as const);
        const yaml = (indent: string): string => values.map(([k, v]) => `${indent}${k}: ${v}`).join('\n');
        const text =
          layout === 'list'
            ? `items:\n- apiVersion: v1\n  data:\n${yaml('    ')}\n  kind: Secret\nkind: List\n`
            : layout === 'manifest'
              ? `apiVersion: v1\nkind: Secret\ndata:\n${yaml('  ')}\n`
              : `${JSON.stringify({ apiVersion: 'v1', data: Object.fromEntries(values), kind: 'Secret' }, null, 2)}\n`;
        const out = await streamed(text, size, 256);
        for (const [k, v] of values) {
          // A value that decodes to text is gone (one that is only 4 characters of base64 may be a word).
          if (v.length >= 8) assert.ok(!out.includes(`: ${v}`) && !out.includes(`"${v}"`), `${k}: ${v}\n${out}`);
          assert.ok(out.includes(k), `key ${k} kept`);
        }
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
  assertQuick(started);
});
