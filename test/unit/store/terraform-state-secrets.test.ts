// Terraform's state keeps resource attributes in clear and marks the sensitive ones beside them:
// `sensitive_attributes` in a state file, `sensitive_values` in `terraform show -json`, `after_sensitive`
// in a plan. Those attributes' strings are redacted whatever they are called; the others stay.
// (The fixtures are written for this test: the shapes of Terraform's state format v4 and its JSON output.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { stateSensitiveValues } from '../../../src/core/store/sanitize/rules/terraform-state';

const clean = (s: string): string => redactSecretsSync(s).text;
const R = '[REDACTED:terraform-sensitive]';
const RESULT = 'pX4!nV8#kR2mW6qZ9tYb';
const HASH = '$2a$10$Wq3mZ8yT1nB6vX0cR5kLuOeJ9dH2fG4sA7pQ1wE3rT5yU8iO0pLkM';
const API = 'Hq7wZ2kLm9xV4bN8';

const STATE = JSON.stringify(
  {
    version: 4,
    terraform_version: '1.9.8',
    serial: 7,
    outputs: {},
    resources: [
      {
        mode: 'managed',
        type: 'random_password',
        name: 'db',
        instances: [
          {
            schema_version: 3,
            attributes: {
              bcrypt_hash: HASH,
              id: 'none',
              length: 20,
              lower: true,
              override_special: '!#$%',
              result: RESULT,
            },
            sensitive_attributes: [
              [{ type: 'get_attr', value: 'result' }],
              [{ type: 'get_attr', value: 'bcrypt_hash' }],
            ],
          },
        ],
      },
      {
        mode: 'managed',
        type: 'kubernetes_secret',
        name: 'app',
        instances: [
          {
            attributes: { data: { APP_CONFIG: API }, id: 'default/app', type: 'Opaque' },
            sensitive_attributes: [
              [
                { type: 'get_attr', value: 'data' },
                { type: 'index', value: { value: 'APP_CONFIG', type: 'string' } },
              ],
            ],
          },
        ],
      },
    ],
  },
  null,
  2,
);

test('a state file: attributes listed in sensitive_attributes go, whatever their names; the rest stays', () => {
  const out = clean(STATE);
  for (const s of [RESULT, HASH.slice(8), API]) assert.ok(!out.includes(s), `${s} in ${out}`);
  const state = JSON.parse(out) as { resources: { instances: { attributes: Record<string, unknown> }[] }[] };
  const [pw, k8s] = state.resources.map((r) => r.instances[0]!.attributes);
  assert.deepEqual(pw, { bcrypt_hash: R, id: 'none', length: 20, lower: true, override_special: '!#$%', result: R });
  assert.deepEqual(k8s, { data: { APP_CONFIG: R }, id: 'default/app', type: 'Opaque' });
  // The paths themselves name attributes, not secrets.
  assert.ok(out.includes('"value": "result"') && out.includes('"value": "APP_CONFIG"'), out);
});

test('terraform show -json and a plan: sensitive_values and after_sensitive mark the attributes', () => {
  const show = JSON.stringify({
    values: {
      root_module: {
        resources: [
          {
            address: 'random_password.db',
            values: { length: 20, result: RESULT, tags: { team: 'core' } },
            sensitive_values: { result: true, tags: {} },
          },
          {
            address: 'aws_instance.web',
            values: { ami: 'ami-0abc', connection: [{ user: 'ops-admin', host: 'Zt5rQ8wLm3xN' }] },
            sensitive_values: { connection: [{ host: true }] },
          },
        ],
      },
    },
  });
  assert.equal(clean(show), show.replace(RESULT, R).replace('ops-admin', R).replace('Zt5rQ8wLm3xN', R));
  const plan = JSON.stringify({
    resource_changes: [
      {
        address: 'random_password.db',
        change: {
          actions: ['create'],
          before: null,
          after: { length: 20, result: RESULT, special: true },
          after_sensitive: { result: true },
          before_sensitive: false,
        },
      },
    ],
  });
  assert.equal(clean(plan), plan.replace(RESULT, R));
});

test('the same state inside a JSON string (a tool result) and what names nothing sensitive', () => {
  const inResult = JSON.stringify({ tool: 'run_command', output: STATE });
  const out = clean(inResult);
  for (const s of [RESULT, API]) assert.ok(!out.includes(s), out);
  assert.equal((JSON.parse(out) as { tool: string }).tool, 'run_command');
  // One line, the string's first: `"{"` opens JSON, not a string, in the decoded view.
  const oneLine = JSON.stringify({ tool: 'run_command', output: JSON.stringify(JSON.parse(STATE)) });
  assert.ok(!clean(oneLine).includes(RESULT), clean(oneLine));
  const plain = '{"values": {"name": "web", "result": "ok"}, "sensitive_values": {}}';
  assert.deepEqual(stateSensitiveValues(plain), []);
  assert.equal(clean(plain), plain);
  assert.deepEqual(
    stateSensitiveValues('he said "sensitive_values": {"result": true} and "values": {"result": "x"}'),
    [],
  );
});

test('one-line show -json and a Secret after a tab in a JSON string (a tab-separated line, a log column)', () => {
  const show = JSON.stringify({
    values: {
      root_module: {
        resources: [{ schema_version: 3, values: { result: RESULT }, sensitive_values: { result: true } }],
      },
    },
  });
  const secret = JSON.stringify({ kind: 'Secret', data: { APP_CONFIG: Buffer.from(API).toString('base64') } });
  for (const line of [show, secret]) {
    const written = JSON.stringify({ path: 'notes.txt', content: `state\t${line}\tend` });
    const out = clean(written);
    assert.ok(!out.includes(RESULT) && !out.includes(Buffer.from(API).toString('base64')), out);
    assert.equal(JSON.parse(out).path, 'notes.txt');
  }
});
