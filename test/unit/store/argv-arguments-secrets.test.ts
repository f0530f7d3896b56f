// Tool-call arguments that give a command as a list of words (`{"command": "mysql", "args": ["-p", "…"]}`,
// an MCP tool's argv) or a secret under a key named `pass` (`db_pass`, `DB_PASS`): each string redacted
// alone had no context (`-p` and its value are two strings), so the value reached the history as given.
// The words of a list are read together, as the command line they make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter } from '../../../src/core/store/history';
import { redactJsonText } from '../../../src/core/store/sanitize/json-values';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';
import { tempDir } from './helpers';

// Fake values (test/fixtures/secrets/README.md).
const PASSWORD = 'hunter2Qw9z';
const TOKEN = 'Zq8wLm3Rt6Yp1Kd9Vx4Nb7Hc2Gf5Js0A';

const redactText = async (s: string): Promise<string> => (await redactSecrets(s)).text;
const redactArgs = (a: unknown): Promise<string> => redactJsonText(JSON.stringify(a), redactText, () => undefined);

const LEAKY: unknown[] = [
  { args: ['--password', PASSWORD] },
  { args: ['mysql', '--user=root', `--password=${PASSWORD}`] },
  { command: 'mysql', args: ['-u', 'root', `-p${PASSWORD}`] },
  { argv: ['curl', '-u', `bob:${PASSWORD}`, 'https://api.example.com'] },
  { argv: ['curl', '-H', 'Authorization:', `Bearer ${TOKEN}`, 'https://api.example.com'] },
  { argv: ['docker', 'login', '-u', 'me', '--password', PASSWORD] },
  { db_pass: PASSWORD },
  { pass: PASSWORD },
  { env: { DB_PASS: PASSWORD, SMTP_PASS: PASSWORD } },
];

test('a secret in a list of command words, or under a key named pass, is redacted in the arguments', async () => {
  for (const a of LEAKY) {
    const out = await redactArgs(a);
    assert.ok(!out.includes(PASSWORD) && !out.includes(TOKEN), out);
    assert.doesNotThrow(() => JSON.parse(out) as unknown, out);
  }
});

test('the other words of the list stay, each in its place', async () => {
  assert.equal(
    await redactArgs({ command: 'mysql', args: ['-u', 'root', `-p${PASSWORD}`, 'db'] }),
    JSON.stringify({ command: 'mysql', args: ['-u', 'root', '-p[REDACTED:cli-password]', 'db'] }),
  );
  assert.equal(
    await redactArgs({ argv: ['docker', 'login', '--password', PASSWORD, 'registry.example.com'] }),
    JSON.stringify({ argv: ['docker', 'login', '--password', '[REDACTED:cli-password]', 'registry.example.com'] }),
  );
});

test('lists of ordinary words, and keys that only contain pass, stay as they are', async () => {
  for (const a of [
    { args: ['-u', 'root', '-p', '--host', 'db'] },
    // mysql's `-p NAME` prompts for the password: NAME is the database.
    { args: ['mysql', '-u', 'root', '-p', 'shop'] },
    { files: ['password.txt', 'token.json', 'secret.md'] },
    { bypass: 'cache', compass: 'north', passes: 'three', passing: 'yes' },
    { words: ['the', 'password', 'is', 'in', 'the', 'vault'] },
    { status: 'pass', pass: '' },
  ]) {
    const text = JSON.stringify(a);
    assert.equal(await redactArgs(a), text, text);
  }
});

test('a value given with its name as a pair or a name/value object (headers, env lists) goes when the name says secret', async () => {
  for (const a of [
    { headers: [['X-Api-Key', TOKEN]] },
    { env: [['API_TOKEN', TOKEN]] },
    { headers: [{ key: 'X-Api-Key', value: TOKEN }] },
    { headers: [{ name: 'x-auth-token', value: TOKEN, enabled: true }] },
    { env: [{ name: 'DB_PASS', value: PASSWORD }] },
  ]) {
    const out = await redactArgs(a);
    assert.ok(!out.includes(TOKEN) && !out.includes(PASSWORD), out);
    assert.ok(out.includes('[REDACTED:secret-field]'), out);
  }
  for (const a of [
    { headers: [['Accept', 'application/json']] },
    { env: [{ name: 'NODE_ENV', value: 'production' }] },
    { pair: ['token', 'count'], more: ['password', 'reset', 'link'] },
  ]) {
    const text = JSON.stringify(a);
    assert.equal(await redactArgs(a), text, text);
  }
});

test('through the history writer: no argv password in the record or the transcript', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await HistoryWriter.open(store, 'argv');
  const toolCalls = LEAKY.map((a, i) => ({ id: `c${i}`, name: 'mcp_run', arguments: JSON.stringify(a) }));
  await w.append({ role: 'assistant', content: '', toolCalls } as never);
  await w.close();
  const files = (await fsp.readFile(w.paths.jsonl, 'utf8')) + (await fsp.readFile(w.paths.markdown, 'utf8'));
  assert.ok(!files.includes(PASSWORD) && !files.includes(TOKEN));
});

test('property: a list of words holding `--password <password>` anywhere loses the password and keeps its length', async () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}$/);
  await fc.assert(
    fc.asyncProperty(fc.array(word, { maxLength: 6 }), fc.array(word, { maxLength: 6 }), async (before, after) => {
      const args = ['mysql', ...before, '--password', PASSWORD, ...after];
      const out = JSON.parse(await redactArgs({ args })) as { args: string[] };
      assert.equal(out.args.length, args.length);
      assert.ok(!out.args.includes(PASSWORD));
    }),
    { numRuns: 200 },
  );
});

test('long lists of words are read in linear time', async () => {
  const started = performance.now();
  for (const args of [
    Array.from({ length: 20_000 }, () => '-p'),
    Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'password' : '--token')),
    ['mysql', ...Array.from({ length: 20_000 }, () => 'x')],
  ])
    assert.equal(typeof (await redactArgs({ args })), 'string');
  assertQuick(started);
});
