// `terraform output -json` and `terraform show -json` print sensitive outputs in clear, marked
// `"sensitive": true`: every string of such a value is redacted whatever the output's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { sensitiveValues } from '../../../src/core/store/sanitize/rules/terraform';

const clean = (s: string): string => redactSecretsSync(s).text;
const R = '[REDACTED:terraform-sensitive]';

const OUTPUT = `{
  "admin": {
    "sensitive": true,
    "type": "string",
    "value": "Xk9mP2vL8qRtW3zN"
  },
  "admin_creds": {
    "sensitive": true,
    "type": [
      "object",
      {
        "pw": "string",
        "user": "string"
      }
    ],
    "value": {
      "pw": "Zq8vN3wLp0xRab",
      "user": "ops-admin"
    }
  },
  "endpoint": {
    "sensitive": false,
    "type": "string",
    "value": "db.example.com"
  },
  "ports": {
    "sensitive": true,
    "type": ["list", "number"],
    "value": [5432, 6432]
  }
}
`;

test('terraform output -json: every string of a sensitive value is redacted, the rest stays', () => {
  const out = clean(OUTPUT);
  for (const secret of ['Xk9mP2vL8qRtW3zN', 'Zq8vN3wLp0xRab', 'ops-admin']) assert.ok(!out.includes(secret), secret);
  assert.ok(out.includes(`"value": "${R}"`));
  assert.ok(out.includes(`"pw": "${R}",\n      "user": "${R}"`), 'the keys of an object value stay');
  assert.ok(out.includes('"value": "db.example.com"'), 'a value not marked sensitive stays');
  assert.ok(out.includes('"pw": "string",'), 'the type stays');
  assert.deepEqual(JSON.parse(out).admin.type, 'string', 'still JSON');
});

test('terraform show -json (value before type), one line, and inside a JSON string', () => {
  const state = '{"values":{"outputs":{"admin":{"sensitive":true,"value":"abcDEF123ghiJKL","type":"string"}}}}';
  assert.equal(clean(state), state.replace('abcDEF123ghiJKL', R));
  const inResult = JSON.stringify({ tool: 'run_command', output: OUTPUT });
  const out = clean(inResult);
  assert.ok(!out.includes('Xk9mP2vL8qRtW3zN') && !out.includes('Zq8vN3wLp0xRab'), out);
  assert.ok(out.includes('db.example.com'));
  assert.equal((JSON.parse(out) as { tool: string }).tool, 'run_command');
});

test('only the value of the object marked sensitive counts, and prose with quotes is no JSON', () => {
  const text = 'he said "sensitive": true about it, then "value": "not a secret at all"\n';
  assert.deepEqual(sensitiveValues(text), []);
  const sibling = '{"a": {"sensitive": true, "value": "s3cr3tValue99"}, "b": {"value": "publicValue"}}';
  assert.deepEqual(
    sensitiveValues(sibling).map(([s, e]) => sibling.slice(s, e)),
    ['"s3cr3tValue99"'],
  );
  assert.equal(clean(sibling), sibling.replace('s3cr3tValue99', R));
});
