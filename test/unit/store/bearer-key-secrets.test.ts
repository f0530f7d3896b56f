// A token under a key named `bearer` (`{"bearer": "…"}` in a tool call's arguments, an HTTP client's
// auth settings, `bearer: …` in YAML) was kept: only `Bearer <token>` after a space was read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

const clean = (s: string): string => redactSecretsSync(s).text;
const TOKEN = 'Zq8xLmT3vB9nK2wRpQ7s';
const M = '[REDACTED:bearer-token]';

test('a token under a bearer key is redacted: JSON, JSON in a JSON string, YAML and an assignment', () => {
  const args = { url: 'https://api.example.com/v1/items', auth: { bearer: TOKEN } };
  const once = clean(JSON.stringify(args));
  assert.deepEqual(JSON.parse(once), { ...args, auth: { bearer: M } });
  const twice = clean(JSON.stringify({ name: 'http_get', arguments: JSON.stringify(args) }));
  assert.ok(!twice.includes(TOKEN), twice);
  assert.deepEqual(JSON.parse((JSON.parse(twice) as { arguments: string }).arguments), {
    ...args,
    auth: { bearer: M },
  });
  assert.equal(clean(`auth:\n  bearer: ${TOKEN}\n`), `auth:\n  bearer: ${M}\n`);
  assert.equal(clean(`bearer = "${TOKEN}"`), `bearer = "${M}"`);
  assert.equal(clean(`{'bearer': '${TOKEN}'}`), `{'bearer': '${M}'}`);
});

test('the word bearer that keys no token stays: a scheme name, short values, prose', () => {
  for (const kept of [
    '{"type": "bearer", "scheme": "http"}',
    '{"bearer": true}',
    'bearerFormat: JWT',
    'The bearer: someone_who_carries_things',
    '"security": [{"bearer": []}]',
  ])
    assert.equal(clean(kept), kept);
});
