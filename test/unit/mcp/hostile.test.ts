import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import { hostile, nodeCommand, start401, withTempDir } from './helpers';

test('hostile and broken servers each end with a clear status; the good one is unaffected', async () => {
  const auth = await start401();
  await withTempDir(async (out) => {
    const manager = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      connectTimeoutMs: 1500,
      listTimeoutMs: 3000,
      settingServers: {
        good: hostile('ok'),
        exits: hostile('exit'),
        silent: hostile('silent'),
        huge: hostile('huge'),
        invalid: hostile('invalid-schema'),
        traversal: hostile('traversal'),
        auth: { type: 'http', url: auth.url, headers: { Authorization: 'Bearer super-secret-token' } },
        missing: { command: 'definitely-not-a-command-xyz' },
      },
    });
    try {
      const states = await manager.syncAll();
      const by = new Map(states.map((s) => [s.name, s]));
      assert.deepEqual(
        states.map((s) => `${s.name}:${s.status}`),
        [
          'good:connected',
          'exits:error',
          'silent:error',
          'huge:connected',
          'invalid:connected',
          'traversal:connected',
          'auth:needs-auth',
          'missing:error',
        ],
      );
      assert.deepEqual(
        by.get('good')!.tools.map((t) => t.name),
        ['echo'],
      );
      assert.match(by.get('exits')!.message!, /exited at start[\s\S]*HOSTILE_API_KEY is not set/);
      assert.match(by.get('silent')!.message!, /did not answer initialize within 1500 ms/);
      assert.match(by.get('missing')!.message!, /was not found/);
      assert.match(by.get('auth')!.fix!, /headers/);

      const mcp = path.join(out, 'mcp');
      // 401: the folder says needs-auth and how to fix it; the header secret is never written.
      const authMd = await readFile(path.join(mcp, 'auth', 'SERVER.md'), 'utf8');
      assert.match(authMd, /Status: needs-auth/);
      assert.match(authMd, /## How to fix it/);
      const everything = await readAll(out);
      assert.ok(!everything.includes('super-secret-token'));

      // 5 MB description: the tool JSON keeps it and says how big; INDEX.md stays small.
      const index = await readFile(path.join(mcp, 'INDEX.md'), 'utf8');
      assert.ok(index.length < 10_000, `INDEX.md is ${index.length} chars`);
      const hugeJson = JSON.parse(await readFile(path.join(mcp, 'huge', 'huge.json'), 'utf8')) as Record<
        string,
        string
      >;
      assert.ok(hugeJson.description!.length > 5_000_000);
      assert.match(hugeJson.descriptionSize!, /^5242886 characters/);

      // Invalid schemas are flagged per tool; the unnamed entry is skipped with a warning.
      const invalid = by.get('invalid')!;
      assert.deepEqual(
        invalid.tools.map((t) => [t.name, Boolean(t.inputSchemaError)]),
        [
          ['echo', false],
          ['bad_type', true],
          ['not_object', true],
          ['no_schema', true],
        ],
      );
      assert.match(invalid.message!, /skipped a tool entry without a name/);
      assert.match(
        await readFile(path.join(mcp, 'invalid', 'SERVER.md'), 'utf8'),
        /bad_type: the input schema is invalid/,
      );

      // Traversal: every file stays inside the folder, names are unique ignoring case.
      const files = await readdir(path.join(mcp, 'traversal'));
      assert.equal(files.length, 10);
      assert.equal(new Set(files.map((f) => f.toLowerCase())).size, 10);
      assert.ok(files.every((f) => !f.startsWith('.') && !f.includes('/') && f.length < 100));
      assert.ok(files.includes('echo.json') && files.includes('SERVER.md'));
      // Nothing but the store's own layout: no tool file escaped into the store root.
      assert.deepEqual((await readdir(out)).sort(), [
        '.context-desk-store',
        '.gitignore',
        '.locks',
        'history',
        'mcp',
        'terminals',
        'tool-outputs',
      ]);
      const x = by.get('traversal')!.tools.find((t) => t.name === '../../x')!;
      assert.equal(path.dirname(x.file), path.join(mcp, 'traversal'));
      assert.equal(JSON.parse(await readFile(x.file, 'utf8')).name, '../../x');

      // Every server appears in INDEX.md with its status.
      for (const s of states) assert.ok(index.includes(`## ${s.name} (${s.status})`));
    } finally {
      await manager.dispose();
      auth.server.close();
    }
  });
});

async function readAll(dir: string): Promise<string> {
  let text = '';
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    text += e.isDirectory() ? await readAll(p) : (await stat(p)).size < 1_000_000 ? await readFile(p, 'utf8') : '';
  }
  return text;
}

test('a schema or a result nested 20,000 levels deep: that tool is flagged, the server and its other tools work', async () => {
  await withTempDir(async (out) => {
    const manager = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      settingServers: { deep: hostile('deep') },
    });
    try {
      const [state] = await manager.syncAll();
      assert.equal(state!.status, 'connected', state!.message);
      assert.deepEqual(
        state!.tools.map((t) => [t.name, t.inputSchemaError ?? null]),
        [
          ['echo', null],
          ['deep', 'the tool has no input schema'],
        ],
      );
      assert.match(state!.message!, /tool deep: its inputSchema nests more than 200 levels deep; left out/);
      const written = JSON.parse(await readFile(path.join(out, 'mcp', 'deep', 'deep.json'), 'utf8')) as {
        inputSchema: unknown;
        inputSchemaError: string;
      };
      assert.equal(written.inputSchema, null);
      assert.equal(written.inputSchemaError, 'the tool has no input schema');
      const result = await manager.callTool('deep', 'nested', {});
      assert.equal(result.text, '[not shown: JSON nested more than 200 levels deep]');
      assert.equal((await manager.callTool('deep', 'echo', { text: 'still here' })).text, 'echo: still here');
    } finally {
      await manager.dispose();
    }
  });
});
