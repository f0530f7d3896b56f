import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseDotenv, redact, resolveServerConfig, VariableError } from '../../../src/core/mcp/variables';
import type { McpInputDeclaration } from '../../../src/core/mcp/types';

test('workspaceFolder, env and input variables are resolved; inputs asked once; secrets collected', async () => {
  const asked: string[] = [];
  const ctx = {
    workspaceFolder: '/ws',
    home: '/home/u',
    env: { TOKEN: 'sekret-env' },
    inputs: [{ id: 'key', type: 'promptString', source: 'c', password: true }],
    resolveInput: async (i: McpInputDeclaration) => {
      asked.push(i.id);
      return 'sekret-input';
    },
  };
  const cache = new Map<string, Promise<string | undefined>>();
  const a = await resolveServerConfig(
    {
      name: 'a',
      source: 'c',
      type: 'stdio',
      command: '${userHome}/bin/s',
      args: ['${workspaceFolder}/x', '--k=${input:key}'],
      env: { T: '${env:TOKEN}', K: '${input:key}' },
    },
    ctx,
    cache,
  );
  assert.deepEqual(a.config.type === 'stdio' && [a.config.command, a.config.args, a.config.env], [
    '/home/u/bin/s',
    ['/ws/x', '--k=sekret-input'],
    { T: 'sekret-env', K: 'sekret-input' },
  ]);
  assert.ok(a.secrets.includes('sekret-env') && a.secrets.includes('sekret-input'));
  const b = await resolveServerConfig(
    {
      name: 'b',
      source: 'c',
      type: 'http',
      url: 'https://h/${input:key}',
      headers: { Authorization: 'Bearer ${input:key}' },
    },
    ctx,
    cache,
  );
  assert.deepEqual(b.config.type === 'http' && b.config.headers, { Authorization: 'Bearer sekret-input' });
  assert.deepEqual(asked, ['key']);
  assert.ok(b.secrets.includes('Bearer sekret-input'));
});

test('unknown variables, missing inputs and a missing folder are clear errors', async () => {
  const base = { name: 'a', source: 'c', type: 'stdio' as const, args: [] };
  const ctx = { env: {}, inputs: [], resolveInput: async () => undefined };
  await assert.rejects(
    resolveServerConfig({ ...base, command: '${bogus}' }, ctx),
    (e) => e instanceof VariableError && /unknown variable \$\{bogus\}/.test(e.message),
  );
  await assert.rejects(resolveServerConfig({ ...base, command: '${input:tok}' }, ctx), /the input 'tok' has no value/);
  await assert.rejects(resolveServerConfig({ ...base, command: '${workspaceFolder}/x' }, ctx), /no folder is open/);
  await assert.rejects(
    resolveServerConfig({ ...base, command: 'x', envFile: '/nonexistent/.env' }, ctx),
    /cannot read envFile/,
  );
});

test('envFile is loaded under env; env wins', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-mcp-var-'));
  try {
    await writeFile(path.join(dir, '.env'), '# c\nA=1\nexport B="two words"\nC=x # trailing\n');
    const r = await resolveServerConfig(
      { name: 'a', source: 'c', type: 'stdio', command: 'x', args: [], envFile: '.env', env: { A: 'over' } },
      { workspaceFolder: dir, env: {}, inputs: [] },
    );
    assert.deepEqual(r.config.type === 'stdio' && r.config.env, { A: 'over', B: 'two words', C: 'x' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the server gets the env file as it was read for consent, not what the file holds later', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-mcp-var-'));
  try {
    await writeFile(path.join(dir, '.env'), 'NODE_OPTIONS=--require ./later.js\n');
    const r = await resolveServerConfig(
      {
        name: 'a',
        source: 'c',
        type: 'stdio',
        command: 'x',
        args: [],
        envFile: '.env',
        envFileContent: { file: path.join(dir, '.env'), vars: { NODE_OPTIONS: '--max-old-space-size=512' } },
      },
      { workspaceFolder: dir, env: {}, inputs: [] },
    );
    assert.deepEqual(r.config.type === 'stdio' && r.config.env, { NODE_OPTIONS: '--max-old-space-size=512' });
    assert.equal('envFileContent' in r.config, false, 'not passed on to the connection');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('dotenv and redact', () => {
  assert.deepEqual(parseDotenv("X='a b'\nbad line\nY=\n"), { X: 'a b', Y: '' });
  assert.equal(
    redact('token abcd1234 and abcd1234xyz; short ab', ['abcd1234', 'abcd1234xyz', 'ab']),
    'token *** and ***; short ab',
  );
});
