// The extension in a real VS Code: activates, contributes its commands, resolves the Agent view and
// completes the panel handshake.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, waitFor, withTimeout } from './helpers';

describe('Context Desk in a real VS Code', () => {
  it('activates and reports its activation time', async () => {
    const a = await api();
    // A real measurement of activate() (its speed is the activation benchmark's business): positive,
    // and shorter than the extension host has been running (a clock mix-up or a constant would not be).
    assert.ok(Number.isFinite(a.activationMs) && a.activationMs > 0, `activationMs ${a.activationMs}`);
    assert.ok(a.activationMs < performance.now(), `${a.activationMs} ms > host uptime ${performance.now()} ms`);
    assert.equal((await api()).activationMs, a.activationMs, 'measured once, at activation');
  });

  it('registers every command that package.json contributes', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (
      ext.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    const all = new Set(await vscode.commands.getCommands(true));
    assert.ok(contributed.length >= 3);
    for (const c of contributed) assert.ok(all.has(c), `command ${c} is registered`);
  });

  it('resolves the Agent view and completes the handshake', async () => {
    const a = await api();
    await vscode.commands.executeCommand('contextDesk.showPanel');
    const init = await withTimeout(a.agentView.whenReady(), 30_000, 'panel handshake');
    const pkg = JSON.parse(
      fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8'),
    ) as { version: string };
    assert.equal(init.extensionVersion, pkg.version);
    assert.equal(init.settings.strategy, vscode.workspace.getConfiguration('contextDesk').get('strategy'));
  });

  it('round-trips a request from host to panel', async () => {
    const ms = await vscode.commands.executeCommand<number | undefined>('contextDesk.pingPanel');
    assert.equal(typeof ms, 'number', 'the panel answered the ping');
  });

  it('sends changed settings to the panel without a reload', async () => {
    const a = await api();
    await a.agentView.whenReady();
    const config = vscode.workspace.getConfiguration('contextDesk');
    await config.update('maskingWindow', 7, vscode.ConfigurationTarget.Global);
    try {
      await waitFor(
        async () => (await a.agentView.snapshot()).settings?.maskingWindow === 7,
        10_000,
        'the panel shows the new masking window',
      );
    } finally {
      await config.update('maskingWindow', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
