// The composer's draft in a real VS Code: what the next window gets back in the message box.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptStep, type ScriptedServer } from '../support/scripted-model-server';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');
const SETTINGS = ['agent.baseUrl', 'agent.model', 'agent.approveCommands'];

describe('Agent draft', function () {
  this.timeout(60_000);
  let a: ContextDeskApi;
  let server: ScriptedServer | undefined;

  async function useScript(script: ScriptStep[]): Promise<ScriptedServer> {
    await server?.close();
    server = await startScriptedModelServer(script);
    const values: Record<string, unknown> = {
      'agent.baseUrl': server.baseURL,
      'agent.model': 'scripted',
      'agent.approveCommands': false,
    };
    for (const key of SETTINGS) await config().update(key, values[key], vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    return server;
  }

  before(async () => {
    a = await api();
  });

  after(async () => {
    await a.saveDraft('');
    await server?.close();
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  // VS Code cancels every storage write once the window starts closing (deactivate and dispose run after
  // it has cut the extension host off: microsoft/vscode#144118), so a draft kept only then is lost.
  it('a draft is in VS Code’s storage as soon as it is typed, not after a pause or at closing', async () => {
    const text = `finish the parser before the release ${Date.now()}`;
    const saving = a.saveDraft(text);
    assert.equal(a.composerDraftStored(), text, 'stored as typed: a window closing now keeps it');
    await saving;
    assert.equal(a.composerDraftStored(), text);
    const saved = a.saveDraft('');
    assert.equal(a.composerDraftStored(), undefined, 'an emptied box is emptied in the storage too');
    await saved;
  });

  it('New Chat with the panel hidden: a message waiting for the stopped run comes back as the draft', async () => {
    // The panel puts a message that was not sent back in an empty box; hidden, it cannot.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await a.saveDraft('');
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.equal(a.chat().stop(), true);
    assert.ok(a.chat().send('do this instead, hidden').accepted, 'taken to send once the run has stopped');
    a.chat().newChat();
    await a.chat().whenSettled();
    assert.equal(a.composerDraft(), 'do this instead, hidden', 'the panel opens with it in the message box');
    assert.equal(a.composerDraftStored(), 'do this instead, hidden', 'and the next window too');
  });

  it('a message that was not sent never replaces text typed since', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.equal(a.chat().stop(), true);
    assert.ok(a.chat().send('waiting message').accepted);
    await a.saveDraft('typed since');
    a.chat().newChat();
    await a.chat().whenSettled();
    assert.equal(a.composerDraft(), 'typed since');
    assert.equal(a.composerDraftStored(), 'typed since');
  });

  // When the window closes the chat gives the waiting message back to the draft, but VS Code no longer
  // writes anything then: it has to be in the storage already.
  it('a message waiting for the stopped run is in VS Code’s storage before the window closes, until it goes', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await a.saveDraft('typed after');
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
      { reply: { text: 'Answered.' } },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.equal(a.chat().stop(), true);
    assert.ok(a.chat().send('the waiting one').accepted, 'taken to send once the run has stopped');
    assert.equal(a.composerDraftStored(), 'the waiting one\n\ntyped after', 'a window closing now gets it back');
    assert.equal(a.composerDraft(), 'typed after', 'the box in this window shows only what was typed');
    await waitFor(() => s.stepsUsed === 3 && a.chat().snapshot.status === 'completed', 30_000, 'the waiting message');
    assert.equal(a.composerDraftStored(), 'typed after', 'sent, it is no longer kept');
  });
});
