import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import type { McpServerState } from '../../../src/core/mcp/types';
import { waitFor } from '../../support/wait';
import { hostile, nodeCommand, withTempDir } from './helpers';

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false,
  );

test('paginated tools/list is followed to the end', async () => {
  const m = new McpSyncManager({
    allowStart: true,
    resolveCommand: nodeCommand,
    settingServers: { p: hostile('paginated') },
  });
  try {
    const [p] = await m.syncAll();
    assert.deepEqual(
      p!.tools.map((t) => t.name),
      ['t0', 't1', 't2', 't3', 't4', 't5'],
    );
  } finally {
    await m.dispose();
  }
});

test('list_changed re-syncs; vanished tools and servers are removed; events fire', async () => {
  await withTempDir(async (out) => {
    const cfg = path.join(out, 'mcp.json');
    await writeFile(cfg, JSON.stringify({ servers: { a: hostile('list-changed'), b: hostile('traversal') } }));
    const store = path.join(out, 'store');
    const m = new McpSyncManager({ outDir: store, allowStart: true, resolveCommand: nodeCommand, configFiles: [cfg] });
    const toolEvents: McpServerState[] = [];
    const statusEvents: string[] = [];
    m.onDidChangeTools((s) => toolEvents.push(s));
    m.onDidChangeStatus((s) => statusEvents.push(`${s.name}:${s.status}`));
    try {
      await m.syncAll();
      assert.deepEqual(statusEvents.sort(), ['a:connected', 'b:connected']);
      await m.callTool('a', 'add_tool', {});
      await waitFor(() => m.getTool('a', 'added') !== undefined, 5_000, 'the added tool', 20);
      await waitFor(() => toolEvents.some((s) => s.name === 'a' && s.tools.length === 2), 5_000, 'the tools event', 20);
      await m.syncServer('a');
      assert.ok(await exists(path.join(store, 'mcp', 'a', 'added.json')));
      assert.match(await readFile(path.join(store, 'mcp', 'INDEX.md'), 'utf8'), /- added: Added later\./);

      // Server b now lists only `echo`: the other tool files vanish. A user file in mcp/ stays.
      await mkdir(path.join(store, 'mcp', 'notes'));
      await writeFile(cfg, JSON.stringify({ servers: { a: hostile('list-changed'), b: hostile('ok') } }));
      await m.syncAll();
      assert.deepEqual((await readdir(path.join(store, 'mcp', 'b'))).sort(), ['SERVER.md', 'echo.json']);

      // Server b removed from the config: its folder goes.
      await writeFile(cfg, JSON.stringify({ servers: { a: hostile('list-changed') } }));
      await m.syncAll();
      assert.deepEqual((await readdir(path.join(store, 'mcp'))).sort(), ['INDEX.md', 'a', 'notes']);
    } finally {
      await m.dispose();
    }
  });
});

test('a lost connection is shown and reconnected with backoff', async () => {
  const m = new McpSyncManager({
    allowStart: true,
    resolveCommand: nodeCommand,
    settingServers: { c: hostile('crash-later') },
    reconnect: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 3 },
  });
  const seen: string[] = [];
  m.onDidChangeStatus((s) => seen.push(s.status));
  try {
    await m.syncAll();
    await m.callTool('c', 'die', {}).catch(() => undefined);
    await waitFor(() => seen.includes('error'), 5_000, 'the error state', 20);
    assert.match(m.servers[0]!.message ?? '', /connection was lost; reconnecting in 50 ms \(attempt 1 of 3\)/);
    await waitFor(() => seen.at(-1) === 'connected' && seen.length >= 3, 5_000, 'connected again', 20);
    assert.equal(m.servers[0]!.tools.length, 1);
  } finally {
    await m.dispose();
  }
});

test('allowStart false starts nothing: every server is disabled with the reason', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: false,
      resolveCommand: () => {
        throw new Error('must not start');
      },
      settingServers: { a: hostile('ok'), off: { ...hostile('ok'), disabled: true } },
    });
    try {
      const states = await m.syncAll();
      assert.deepEqual(
        states.map((s) => [s.name, s.status]),
        [
          ['a', 'disabled'],
          ['off', 'disabled'],
        ],
      );
      assert.match(states[0]!.message!, /untrusted workspace/);
      assert.match(await readFile(path.join(out, 'mcp', 'a', 'SERVER.md'), 'utf8'), /Status: disabled/);
      m.update({ allowStart: true, resolveCommand: nodeCommand });
      const after = await m.syncAll();
      assert.deepEqual(
        after.map((s) => [s.name, s.status]),
        [
          ['a', 'connected'],
          ['off', 'disabled'],
        ],
      );
      assert.match(after[1]!.message!, /Disabled in setting/);
    } finally {
      await m.dispose();
    }
  });
});

test('secrets from env and inputs never reach the files; config errors are reported', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      resolveInput: async () => 'tok-secret-123',
      settingServers: { e: { ...hostile('exit'), env: { HOSTILE_TOKEN: '${input:token}' } }, bad: { type: 'stdio' } },
    });
    try {
      const [e] = await m.syncAll();
      assert.equal(e!.status, 'error');
      assert.match(e!.message!, /token \*\*\*/);
      assert.ok(!(await readFile(path.join(out, 'mcp', 'e', 'SERVER.md'), 'utf8')).includes('tok-secret-123'));
      assert.match(m.configErrors[0]!.message, /server 'bad': a stdio server needs a "command"/);
    } finally {
      await m.dispose();
    }
  });
});

test('VS Code tools appear as the server `vscode`; a config server of that name is refused', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      settingServers: { vscode: { command: 'x' } },
      vscodeTools: [
        {
          name: 'copilot_readFile',
          description: 'Read a file.',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
      invokeVscodeTool: async (name, args) => ({ isError: false, text: `${name}:${JSON.stringify(args)}`, raw: null }),
    });
    try {
      const states = await m.syncAll();
      assert.deepEqual(
        states.map((s) => [s.name, s.status, s.transport]),
        [['vscode', 'connected', 'vscode']],
      );
      assert.ok(await exists(path.join(out, 'mcp', 'vscode', 'copilot_readFile.json')));
      assert.match(m.configErrors[0]!.message, /reserved for VS Code/);
      assert.equal(
        (await m.callTool('vscode', 'copilot_readFile', { path: 'a' })).text,
        'copilot_readFile:{"path":"a"}',
      );
    } finally {
      await m.dispose();
    }
  });
});

test('setVscodeTools rewrites only the vscode folder', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({ outDir: out, allowStart: true, vscodeTools: [{ name: 'a', description: 'A.' }] });
    try {
      await m.syncAll();
      await m.setVscodeTools([{ name: 'b', description: 'B.' }]);
      assert.deepEqual((await readdir(path.join(out, 'mcp', 'vscode'))).sort(), ['SERVER.md', 'b.json']);
      assert.match(await readFile(path.join(out, 'mcp', 'INDEX.md'), 'utf8'), /^- b: B\.$/m);
    } finally {
      await m.dispose();
    }
  });
});

test('backoff doubles up to the cap, then gives up', async () => {
  const { lostState } = await import('../../../src/core/mcp/manager-options');
  const prev: McpServerState = {
    name: 's',
    folderName: 's',
    transport: 'stdio',
    source: 'c',
    status: 'connected',
    tools: [],
  };
  const r = { initialDelayMs: 100, maxDelayMs: 350, maxAttempts: 4 };
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => lostState(prev, n, r).delayMs),
    [100, 200, 350, 350],
  );
  const last = lostState(prev, 5, r);
  assert.equal(last.delayMs, undefined);
  assert.match(last.state.message!, /gave up after 4 reconnect attempts/);
  assert.equal(last.state.status, 'error');
});
