// Settings in a real VS Code: the panel's pickers write where a value is set (so the picker and the
// session agree), and strategy, window and budget changed during a run reach it from its next call.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { startScriptedModelServer, type ScriptStep, type ScriptedServer } from '../support/scripted-model-server';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');
const KEYS = [
  'agent.baseUrl',
  'agent.model',
  'agent.approveCommands',
  'agent.budgetTokens',
  'agent.budgetMode',
  'strategy',
  'maskingWindow',
];

async function clear(): Promise<void> {
  for (const key of KEYS) {
    await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    // Application-wide settings have no workspace value to clear (VS Code refuses the write).
    if (key !== 'agent.approveCommands') await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  }
}

const read = (path: string): ScriptStep => ({
  reply: { text: `Reading ${path}.`, toolCalls: [{ name: 'read_file', arguments: { path } }] },
});
/** A command the user is asked to approve: the run waits there while the test changes settings. */
const command: ScriptStep = { reply: { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] } };

describe('Settings', function () {
  this.timeout(60_000);
  let a: ContextDeskApi;
  let server: ScriptedServer | undefined;

  async function start(script: ScriptStep[], settings: Record<string, unknown>): Promise<ScriptedServer> {
    await server?.close();
    server = await startScriptedModelServer(script);
    const all = { 'agent.baseUrl': server.baseURL, 'agent.model': 'scripted', ...settings };
    for (const [k, v] of Object.entries(all)) await config().update(k, v, vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    return server;
  }

  /** Sends, waits for the command approval, runs `change`, denies the command, waits for the end. */
  async function changeDuringRun(change: () => Promise<void>): Promise<string> {
    assert.ok(a.chat().send('read the files').accepted);
    await waitFor(() => a.chat().snapshot.approval !== undefined, 20_000, 'the command approval');
    await change();
    a.chat().approvals.answer(a.chat().snapshot.approval!.id, false);
    await waitFor(() => a.chat().snapshot.status !== 'running', 30_000, 'the run ends');
    return a.chat().snapshot.status;
  }

  before(async () => {
    a = await api();
  });
  after(async () => {
    await server?.close();
    await clear();
  });

  it('the strategy picker writes where the strategy is set, and says so', async () => {
    await clear();
    await config().update('strategy', 'raw', vscode.ConfigurationTarget.Workspace);
    assert.equal(await a.chat().setStrategy('masking'), 'masking');
    const inspected = config().inspect<string>('strategy')!;
    assert.equal(inspected.workspaceValue, 'masking', 'the workspace value, which wins, changed');
    assert.equal(inspected.globalValue, undefined, 'user settings untouched');
    assert.equal(config().get('strategy'), 'masking');
    assert.equal(a.chat().snapshot.strategy, 'masking');
    const notice = a.chat().snapshot.items.find((i) => i.kind === 'notice' && /workspace settings/.test(i.text));
    assert.ok(notice, 'the panel says which settings it wrote');

    // Set nowhere: user settings, no notice.
    await config().update('strategy', undefined, vscode.ConfigurationTarget.Workspace);
    assert.equal(await a.chat().setStrategy('hybrid'), 'hybrid');
    assert.equal(config().inspect<string>('strategy')!.globalValue, 'hybrid');
    assert.equal(config().inspect<string>('strategy')!.workspaceValue, undefined);
    await clear();
  });

  it('a strategy and window changed during a run apply from its next call', async () => {
    const s = await start(
      [
        read('README.md'),
        read('src/greet.py'),
        command,
        read('build-log.sh'),
        read('README.md'),
        { reply: { text: 'Done.' } },
      ],
      {
        'agent.approveCommands': true,
        strategy: 'raw',
        maskingWindow: 10,
      },
    );
    const status = await changeDuringRun(async () => {
      await config().update('strategy', 'masking', vscode.ConfigurationTarget.Global);
      await config().update('maskingWindow', 1, vscode.ConfigurationTarget.Global);
    });
    assert.equal(status, 'completed');
    const placeholders = s
      .chatRequests()
      .map((r) => r.messages.filter((m) => /^Old environment output: \(/.test(m.content ?? '')).length);
    assert.deepEqual(placeholders.slice(0, 3), [0, 0, 0], 'raw before the change');
    assert.ok(placeholders.at(-1)! > 0, `masking with window 1 after it: ${placeholders.join(',')}`);
    // The conversation went on: the last request still holds the first instruction, verbatim.
    assert.ok(
      s
        .chatRequests()
        .at(-1)!
        .messages.some((m) => m.role === 'user' && m.content === 'read the files'),
    );
    assert.equal(a.chat().snapshot.strategy, 'masking', 'the panel shows the strategy in use');
  });

  it('a budget set during a run stops it at the next call', async () => {
    const s = await start([read('README.md'), command, read('src/greet.py'), { reply: { text: 'never' } }], {
      'agent.approveCommands': true,
      'agent.budgetTokens': 0,
    });
    const status = await changeDuringRun(async () => {
      await config().update('agent.budgetTokens', 1, vscode.ConfigurationTarget.Global);
      await config().update('agent.budgetMode', 'hard', vscode.ConfigurationTarget.Global);
    });
    assert.equal(status, 'budget');
    assert.equal(s.chatRequests().length, 2, 'no call after the budget was set');
  });
});
