// The start prompt's Start allows exactly the server definitions that prompt showed: not a server the
// user answered Not Now to earlier, nor one redefined while the prompt was open.
import { prompts, user, type ShownPrompt } from '../../support/fake-vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { McpController } from '../../../src/extension/mcp/mcpController';
import { McpStartConsent } from '../../../src/extension/mcp/startConsent';
import { ContextStore } from '../../../src/core/store/context-store';
import { silentLogger } from '../../../src/core/ports';
import type { SecretStorage } from 'vscode';
import { memento } from '../../support/memento';
import { waitFor } from '../../support/wait';
import { withTempDir } from './helpers';

/** A server that exits at once: started, it is an error; never started, it stays disabled. */
const exits = { command: process.execPath, args: ['-e', 'process.exit(3)'] };

interface Harness {
  c: McpController;
  /** Writes the workspace's `.mcp.json`. */
  config(servers: Record<string, unknown>): Promise<void>;
  /** Waits until a Start allowed servers and the sync it started has ended. */
  started(): Promise<void>;
}

async function withController(fn: (h: Harness) => Promise<void>): Promise<void> {
  await withTempDir(async (ws) => {
    const store = path.join(ws, '.context-desk');
    const infos: string[] = [];
    const c = new McpController({ get: async () => undefined, store: async () => {} } as unknown as SecretStorage, {
      outDir: () => store,
      openStore: () => ContextStore.open({ root: store, workspaceRoot: ws }),
      workspaceFolder: () => ws,
      settingServers: () => ({}),
      workspaceSettingServerNames: () => new Set(),
      startConsent: new McpStartConsent(memento()),
      deadlineSeconds: () => 5,
      logger: { ...silentLogger, info: (m: string) => void infos.push(m) },
    });
    try {
      await fn({
        c,
        config: (servers) => writeFile(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: servers })),
        started: async () => {
          await waitFor(() => infos.some((m) => m.startsWith('MCP: allowed to start')), 5000, 'Start');
          await c.ready();
        },
      });
    } finally {
      c.dispose();
      prompts.length = 0;
    }
  });
}

function statuses(c: McpController): string[] {
  return c.manager.servers.filter((s) => s.name !== 'vscode').map((s) => `${s.name}:${s.status}`);
}

test('Start allows the servers the prompt named, not one the user answered Not Now to before', async () => {
  await withController(async ({ c, config, started }) => {
    await config({ evil: exits });
    user.answer = async () => 'Not Now';
    await c.refresh();
    await waitFor(() => prompts.length === 1, 5000, 'the first prompt');
    assert.match(prompts[0]!.message, /"evil"/);
    // A pull adds a server; the new prompt names only it.
    await config({ evil: exits, github: exits });
    user.answer = async () => 'Start';
    await c.refresh();
    await started();
    assert.doesNotMatch(prompts[1]!.message, /"evil"/);
    assert.deepEqual(statuses(c), ['evil:disabled', 'github:error']);
    assert.deepEqual(
      c.waitingForConsent.map((s) => s.name),
      ['evil'],
    );
  });
});

test('Start on a prompt whose server was redefined since allows nothing new: the new definition is asked about', async () => {
  await withController(async ({ c, config, started }) => {
    await config({ srv: exits });
    let answerFirst: (choice: string) => void = () => {};
    user.answer = (p: ShownPrompt) =>
      prompts.indexOf(p) === 0 ? new Promise((resolve) => (answerFirst = resolve)) : Promise.resolve(undefined);
    await c.refresh();
    await waitFor(() => prompts.length === 1, 5000, 'the first prompt');
    assert.match(prompts[0]!.message, /-e process\.exit\(3\)/);
    // Another branch checked out while the prompt is open: the same name runs another program.
    await config({ srv: { command: process.execPath, args: ['-e', 'process.exit(4)'] } });
    await c.refresh();
    await waitFor(() => prompts.length === 2, 5000, 'the new definition is asked about');
    assert.match(prompts[1]!.message, /process\.exit\(4\)/);
    answerFirst('Start');
    await started();
    assert.deepEqual(statuses(c), ['srv:disabled'], 'the definition shown was not the one started');
  });
});
