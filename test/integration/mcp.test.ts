// MCP in a real VS Code: servers from .vscode/mcp.json are synced into per-server folders, the Tools
// view's commands open what was written, and editing the config re-syncs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, extensionPath, syncAllowingWorkspaceServers, waitFor, workspaceRoot } from './helpers';

function serverPath(pkg: string): string {
  return path.join(extensionPath(), 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
}

function writeConfig(servers: Record<string, unknown>): void {
  const dir = path.join(workspaceRoot(), '.vscode');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ servers }, null, 2));
}

describe('MCP tool folders', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;

  before(async () => {
    a = await api();
    writeConfig({
      everything: { type: 'stdio', command: process.execPath, args: [serverPath('server-everything'), 'stdio'] },
      files: {
        type: 'stdio',
        command: process.execPath,
        args: [serverPath('server-filesystem'), '${workspaceFolder}'],
      },
      broken: { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] },
    });
  });

  after(async () => {
    fs.rmSync(path.join(workspaceRoot(), '.vscode', 'mcp.json'), { force: true });
    await vscode.commands.executeCommand('contextDesk.mcp.forgetAllowedServers');
  });

  it('starts no server the workspace defines until allowed, naming why', async () => {
    const states = await a.tools().mcp.refresh();
    const mine = states.filter((s) => s.name !== 'vscode');
    assert.deepEqual(
      mine.map((s) => `${s.name}:${s.status}`),
      ['everything:disabled', 'files:disabled', 'broken:disabled'],
    );
    assert.match(mine[0]!.message!, /the workspace defines it \(.*mcp\.json\) and you have not allowed it to start/);
    assert.deepEqual(
      a
        .tools()
        .mcp.waitingForConsent.map((c) => c.name)
        .sort(),
      ['broken', 'everything', 'files'],
    );
  });

  it('syncs each server into its own folder with a status', async () => {
    const states = await a.tools().mcp.startWaitingServers();
    const by = new Map(states.map((s) => [s.name, s]));
    assert.equal(by.get('everything')?.status, 'connected', by.get('everything')?.message);
    assert.ok((by.get('everything')?.tools.length ?? 0) >= 10, 'server-everything lists its tools');
    assert.equal(by.get('files')?.status, 'connected', by.get('files')?.message);
    assert.equal(by.get('broken')?.status, 'error');
    assert.ok(by.get('broken')?.fix, 'a broken server says how to fix it');

    const mcpDir = path.join(a.contextFolder(), 'mcp');
    const index = fs.readFileSync(path.join(mcpDir, 'INDEX.md'), 'utf8');
    assert.match(index, /everything/);
    assert.match(index, /broken/);
    const echo = by.get('everything')!.tools.find((t) => t.name === 'echo');
    assert.ok(echo, 'the echo tool is listed');
    const stored = JSON.parse(fs.readFileSync(echo.file, 'utf8')) as { name: string; inputSchema: unknown };
    assert.equal(stored.name, 'echo');
    assert.ok(stored.inputSchema, 'the full schema is on disk');
    assert.match(fs.readFileSync(path.join(mcpDir, by.get('broken')!.folderName, 'SERVER.md'), 'utf8'), /error/);
  });

  it('opens a tool description from the Tools view command', async () => {
    const server = a.tools().mcp.manager.servers.find((s) => s.name === 'everything')!;
    const tool = server.tools.find((t) => t.name === 'echo')!;
    await vscode.commands.executeCommand('contextDesk.mcp.openDescription', { kind: 'tool', server, tool });
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.fsPath === tool.file,
      10_000,
      'the description opens',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('re-syncs when the config file changes, removing a server that is gone', async () => {
    const changed = new Promise<void>((resolve) => {
      const d = a.tools().mcp.onDidChange(() => {
        if (!a.tools().mcp.manager.servers.some((s) => s.name === 'files')) {
          d.dispose();
          resolve();
        }
      });
    });
    writeConfig({
      everything: { type: 'stdio', command: process.execPath, args: [serverPath('server-everything'), 'stdio'] },
    });
    await Promise.race([
      changed,
      new Promise((_, rej) => setTimeout(() => rej(new Error('no re-sync within 30 s')), 30_000)),
    ]);
    assert.deepEqual(
      a
        .tools()
        .mcp.manager.servers.map((s) => s.name)
        .filter((n) => n !== 'vscode'),
      ['everything'],
    );
  });

  it('a server whose command a config change replaces waits for consent again; consents can be forgotten', async () => {
    writeConfig({
      everything: { type: 'stdio', command: process.execPath, args: [serverPath('server-everything'), 'stdio', '--x'] },
    });
    assert.equal((await a.tools().mcp.refresh()).find((s) => s.name === 'everything')?.status, 'disabled');
    writeConfig({
      everything: { type: 'stdio', command: process.execPath, args: [serverPath('server-everything'), 'stdio'] },
    });
    assert.equal((await a.tools().mcp.refresh()).find((s) => s.name === 'everything')?.status, 'connected');
    assert.ok((await vscode.commands.executeCommand<number>('contextDesk.mcp.forgetAllowedServers')) >= 1);
    const after = await a.tools().mcp.refresh();
    assert.equal(after.find((s) => s.name === 'everything')?.status, 'disabled', 'forgotten: it waits again');
  });

  it('a refresh asked for during a sync answers with the config as it is now, not the run in flight', async () => {
    // A server that takes a second to fail keeps the first sync in flight while the config changes.
    writeConfig({ slow: { type: 'stdio', command: process.execPath, args: ['-e', 'setTimeout(() => {}, 1000)'] } });
    await syncAllowingWorkspaceServers(a);
    const first = a.tools().mcp.refresh();
    await waitFor(
      () => a.tools().mcp.manager.servers.some((s) => s.name === 'slow'),
      10_000,
      'the first sync has read the config',
    );
    writeConfig({ quick: { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] } });
    const names = (await a.tools().mcp.refresh()).map((s) => s.name);
    assert.ok(names.includes('quick'), `the new server is synced: ${names.join(', ')}`);
    assert.ok(!names.includes('slow'), `the removed server is gone: ${names.join(', ')}`);
    await first;
  });
});
