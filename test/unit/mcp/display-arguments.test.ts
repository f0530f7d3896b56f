// The MCP tool card's arguments (stored with the chat, shown on screen): a value under a secret-named
// key is masked as the store masks it in a tool call's arguments, whatever the value looks like.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { displayArguments, exactArguments } from '../../../src/core/agent/tools/mcp';

test('values under secret-named keys are masked on the tool card', async () => {
  const args = {
    secret_value: 'hunter2hunter2',
    api_key: 'abc123xyz789',
    password: 'correct horse battery staple',
    token: 'plain-words-token',
    nested: { clientSecret: 'opensesame', list: [{ db_password: 'letmein99' }] },
    query: 'SELECT 1',
    token_count: 5,
  };
  const shown = await displayArguments(args);
  for (const secret of [
    'hunter2hunter2',
    'abc123xyz789',
    'correct horse',
    'plain-words-token',
    'opensesame',
    'letmein99',
  ])
    assert.ok(!shown.includes(secret), `${secret} shown in\n${shown}`);
  const parsed = JSON.parse(shown) as Record<string, unknown>;
  assert.match(String(parsed.secret_value), /^\[REDACTED:[\w-]+\]$/);
  assert.equal(parsed.query, 'SELECT 1');
  assert.equal(parsed.token_count, 5);
  assert.ok(shown.includes('\n  "query"'), 'still pretty-printed');
});

test('arguments the model sent as a JSON string are masked the same way', async () => {
  const shown = await displayArguments(JSON.stringify({ secret_value: 'hunter2hunter2', name: 'x' }));
  assert.ok(!shown.includes('hunter2hunter2'), shown);
  assert.ok(shown.includes('"name": "x"'), shown);
});

test('arguments without a secret are shown exactly as the call gets them', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(
        fc.constantFrom('path', 'query', 'limit', 'name', 'mode'),
        fc.oneof(fc.integer(), fc.constantFrom('a', 'src/x.ts', 'SELECT 1')),
      ),
      async (args) => {
        assert.equal(await displayArguments(args), exactArguments(args));
      },
    ),
    { numRuns: 100 },
  );
});

test('arguments that are no JSON are redacted as text', async () => {
  const ghp = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
  const shown = await displayArguments(`not json {${ghp}`);
  assert.equal(shown, 'not json {[REDACTED:github-token]');
});
