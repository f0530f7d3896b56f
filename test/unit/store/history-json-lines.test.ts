// A history record is one JSON line, redacted as text on its way to disk: a redaction must replace part
// of a string, never the JSON around it, or the line no longer parses and the reader skips the whole
// message. A record's own `redactions` counts (`{"url-password":1,"cli-password":1}`) after a `"role":"user"`
// read to the SQL rule as `USER … PASSWORD "…"`, and it took the `":1,"` between two keys for a password.
// Tool-call arguments (a command with a Bearer header, an export, a JSON password, a URL's user:password@)
// are redacted in the record and in the transcript, as given and when the message is masked later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, isMessageRecord, loadSession } from '../../../src/core/store/history';
import { activeRules, redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { tempDir } from './helpers';

// Fake values (test/fixtures/secrets/README.md): none was ever a credential.
const BEARER = 'Zq8wLm3Rt6Yp1Kd9Vx4Nb7Hc2Gf5Js0A';
const URL_PASSWORD = 'pa55W0rdXyz';
const CLI_PASSWORD = 'Tr0ub4dorAnd3';
const JSON_PASSWORD = 'hunter2Qw9z';
const SECRETS = [BEARER, URL_PASSWORD, CLI_PASSWORD, JSON_PASSWORD];

async function writer(t: Parameters<typeof tempDir>[0]): Promise<{ store: ContextStore; w: HistoryWriter }> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  return { store, w: await HistoryWriter.open(store, 's1') };
}

async function files(w: HistoryWriter): Promise<{ jsonl: string; all: string }> {
  const jsonl = await fsp.readFile(w.paths.jsonl, 'utf8');
  return { jsonl, all: jsonl + (await fsp.readFile(w.paths.markdown, 'utf8')) };
}

function assertLinesParse(jsonl: string): void {
  for (const line of jsonl.split('\n').filter((l) => l !== ''))
    assert.doesNotThrow(() => JSON.parse(line) as unknown, line);
}

test('a user message with a URL password and a CLI password is kept whole in the history', async (t) => {
  const { store, w } = await writer(t);
  const content = `connect with postgres://app:${URL_PASSWORD}@db/x then mysql -u root -p${CLI_PASSWORD} db`;
  await w.append({ role: 'user', content, origin: 'person' } as never);
  await w.append({ role: 'assistant', content: 'Done.' } as never);
  await w.close();
  const { jsonl, all } = await files(w);
  assertLinesParse(jsonl);
  const loaded = await loadSession(store, 's1');
  assert.deepEqual(
    loaded.records.filter(isMessageRecord).map((r) => r.message.role),
    ['user', 'assistant'],
  );
  for (const s of SECRETS) assert.ok(!all.includes(s), s);
});

const ARGUMENTS: Record<string, unknown>[] = [
  { command: `curl -H 'Authorization: Bearer ${BEARER}' https://api.example.com/v1` },
  { command: `curl -H "Authorization: Bearer ${BEARER}" https://api.example.com/v1` },
  { command: `export OPENAI_API_KEY=${BEARER} && python run.py` },
  { command: `OPENAI_API_KEY=${BEARER} python run.py` },
  { command: `curl -u admin:${URL_PASSWORD} https://api.example.com && mysql -u root -p${CLI_PASSWORD} db` },
  { command: `git clone https://bob:${URL_PASSWORD}@github.com/x/y.git` },
  { password: JSON_PASSWORD },
  { config: { db: { user: 'app', password: JSON_PASSWORD } } },
  { url: `https://bob:${URL_PASSWORD}@host.example.com/x` },
  { headers: { Authorization: `Bearer ${BEARER}` } },
  { body: JSON.stringify({ username: 'bob', password: JSON_PASSWORD }) },
];

test('tool-call arguments are redacted in the record and the transcript, as given and masked; every line parses', async (t) => {
  const { store, w } = await writer(t);
  const toolCalls = ARGUMENTS.map((a, i) => ({ id: `call_${i}`, name: 'run_command', arguments: JSON.stringify(a) }));
  // A reply cut off mid-call: arguments that are not JSON.
  toolCalls.push({ id: 'cut', name: 'run_command', arguments: `{"command":"curl -H 'Authorization: Bearer ${BEARER}` });
  await w.append({ role: 'user', content: 'Deploy it.', origin: 'person' } as never);
  await w.append({ role: 'assistant', content: '', toolCalls } as never);
  await w.appendMasked(
    1,
    { role: 'assistant', content: '', toolCalls } as never,
    {
      storedAt: '.context-desk/tool-outputs/s1/0001-run_command.txt',
      placeholder: 'Old environment output: (3 lines omitted)',
    } as never,
  );
  await w.close();
  const { jsonl, all } = await files(w);
  assertLinesParse(jsonl);
  for (const s of SECRETS) assert.ok(!all.includes(s), s);
  const loaded = await loadSession(store, 's1');
  const calls = loaded.records.filter(isMessageRecord)[1]!.message.toolCalls!;
  assert.equal(calls.length, toolCalls.length);
  // Parsed arguments stay JSON, with their other fields.
  for (const c of calls.slice(0, ARGUMENTS.length)) assert.doesNotThrow(() => JSON.parse(c.arguments) as unknown);
  assert.match(calls[0]!.arguments, /Bearer \[REDACTED:[\w-]+\]' https:\/\/api\.example\.com\/v1/);
});

test('property: an object of redaction counts by rule id, after a user role, is left as it is', () => {
  const ids = [...new Set(activeRules().map((r) => r.id))];
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 8 }),
      fc.array(fc.oneof(fc.nat(99), fc.constant(null), fc.boolean()), { minLength: 8, maxLength: 8 }),
      fc.constantFrom('user', 'role', 'login'),
      (keys, values, word) => {
        const counts = Object.fromEntries(keys.map((k, i) => [k, values[i]]));
        const text = JSON.stringify({ message: { role: word, content: 'ok' }, redactions: counts });
        assert.equal(redactSecretsSync(text).text, text);
      },
    ),
    { numRuns: 500 },
  );
});

test('SQL passwords are still found; a JSON key ending in password is no SQL', () => {
  const redacted: Array<[string, string]> = [
    ["CREATE USER bob PASSWORD 'hunter2'", "CREATE USER bob PASSWORD '[REDACTED]'"],
    ["ALTER ROLE app WITH LOGIN PASSWORD 'S3cret'", "ALTER ROLE app WITH LOGIN PASSWORD '[REDACTED]'"],
    ["SET PASSWORD FOR 'bob'@'%' = 'S3cret!'", "SET PASSWORD FOR 'bob'@'%' = '[REDACTED]'"],
    ["SET PASSWORD='S3cret!'", "SET PASSWORD='[REDACTED]'"],
    ["CREATE USER 'bob'@'%' IDENTIFIED BY 'S3cret!'", "CREATE USER 'bob'@'%' IDENTIFIED BY '[REDACTED]'"],
    ['CREATE USER bob PASSWORD "hunter2"', 'CREATE USER bob PASSWORD "[REDACTED]"'],
  ];
  // Which rule names it does not matter here (an env-style `PASSWORD=` rule may come first).
  for (const [line, want] of redacted)
    assert.equal(redactSecretsSync(line).text.replace(/\[REDACTED:[\w-]+\]/g, '[REDACTED]'), want, line);
  for (const text of [
    '{"login":"x","password":null,"n":"1"}',
    '{"curl-user":1,"cli-password":2,"url-password":3}',
    '{"role":"admin","db-password":true,"next":"value"}',
  ])
    assert.equal(redactSecretsSync(text).text, text, text);
});
