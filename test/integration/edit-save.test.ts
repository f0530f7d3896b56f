// The edit's write and the store's files opened in the editor, in a real VS Code, against links a
// command swaps in at the last moment: the edit is never written through a link made after its last
// check, it keeps the file's encoding, byte order mark and line endings, and Open Terminal Log and
// Open Masked Observation refuse a file a command hard-linked into the store.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { AgentDriver } from './driver';
import { api, waitFor, workspaceRoot } from './helpers';

const HOOK = Symbol.for('contextDesk.test.afterEditRecheck');
type Hooked = { [HOOK]?: (file: string) => unknown };

const edit = (file: string, oldText: string | undefined, newText: string) => ({
  reply: {
    toolCalls: [
      { name: 'edit_file', arguments: { path: file, new_text: newText, ...(oldText ? { old_text: oldText } : {}) } },
    ],
  },
});

/** A file outside the workspace with the same size and times as `like`: VS Code's save cannot tell it apart. */
function twinOutside(like: string, text: string): string {
  const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cd-outside-')), 'victim.txt');
  fs.writeFileSync(outside, text);
  const st = fs.statSync(like);
  fs.utimesSync(outside, st.atime, st.mtime);
  return outside;
}

describe('Edit save window and store files opened in the editor', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let d: AgentDriver;
  const file = (name: string): string => path.join(workspaceRoot(), name);
  const noApproval = { 'agent.approveCommands': false };

  before(async () => {
    a = await api();
    d = new AgentDriver(a);
  });
  afterEach(() => {
    delete (globalThis as Hooked)[HOOK];
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await d.dispose();
  });

  for (const kind of ['symbolic link', 'hard link'] as const)
    it(`an edit is not written through a ${kind} swapped in after its last check`, async () => {
      const target = file(`es-swap-${kind === 'hard link' ? 'hard' : 'sym'}.txt`);
      fs.writeFileSync(target, 'one\ntwo\n');
      await vscode.workspace.openTextDocument(target);
      const outside = twinOutside(target, 'OUT\nOUT\n');
      (globalThis as Hooked)[HOOK] = () => {
        fs.rmSync(target);
        if (kind === 'hard link') fs.linkSync(outside, target);
        else fs.symlinkSync(outside, target);
      };
      await d.script([edit(path.basename(target), 'two', 'TWO'), { reply: { text: 'ok' } }], noApproval);
      await d.send('capitalise two');
      assert.equal(await d.finished(), 'completed');
      assert.equal(fs.readFileSync(outside, 'utf8'), 'OUT\nOUT\n', 'the file outside is untouched');
      assert.match(d.toolResults(1)[0] ?? '', /changed just before writing.*nothing was written/);
      fs.rmSync(target);
    });

  it('a new file is not created through a link swapped in at its name after the last check', async () => {
    const target = file('es-new.txt');
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cd-outside-')), 'autostart.desktop');
    (globalThis as Hooked)[HOOK] = () => fs.symlinkSync(outside, target);
    await d.script([edit('es-new.txt', undefined, 'made\n'), { reply: { text: 'ok' } }], noApproval);
    await d.send('create es-new.txt');
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.existsSync(outside), false, 'nothing was created outside');
    assert.match(d.toolResults(1)[0] ?? '', /changed just before writing/);
    fs.rmSync(target);
  });

  it('an edit keeps a UTF-8 byte order mark and CRLF, saves to disk and leaves the editor clean on it', async () => {
    const target = file('es-bom.txt');
    fs.writeFileSync(target, '\ufeffa\r\nb\r\nc\r\n');
    const doc = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.encoding, 'utf8bom');
    await d.script([edit('es-bom.txt', 'b\nc', 'B\nC'), { reply: { text: 'ok' } }], noApproval);
    await d.send('capitalise b and c');
    assert.equal(await d.finished(), 'completed');
    assert.match(d.toolResults(1)[0] ?? '', /^Edited es-bom\.txt\./);
    assert.deepEqual(fs.readFileSync(target), Buffer.from('\ufeffa\r\nB\r\nC\r\n'));
    await waitFor(() => doc.getText() === 'a\r\nB\r\nC\r\n' && !doc.isDirty, 10_000, 'the editor shows the file');
  });

  it('an edit of a file open in its legacy encoding keeps every byte outside the edit', async () => {
    const target = file('es-latin1.txt');
    fs.writeFileSync(target, Buffer.from('caf\xe9\nna\xefve\nend\n', 'latin1'));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target), { encoding: 'windows1252' });
    assert.equal(doc.encoding, 'windows1252');
    await d.script([edit('es-latin1.txt', 'end', 'fin'), { reply: { text: 'ok' } }], noApproval);
    await d.send('translate end');
    assert.equal(await d.finished(), 'completed');
    assert.deepEqual(fs.readFileSync(target), Buffer.from('caf\xe9\nna\xefve\nfin\n', 'latin1'));
  });

  it('an edit is not written over a change made on disk that the editor has not loaded yet', async () => {
    const target = file('es-stale.txt');
    fs.writeFileSync(target, 'one\ntwo\n');
    await vscode.workspace.openTextDocument(target);
    (globalThis as Hooked)[HOOK] = () => fs.writeFileSync(target, 'one\ntwo\nthree, written by a command\n');
    await d.script([edit('es-stale.txt', 'two', 'TWO'), { reply: { text: 'ok' } }], noApproval);
    await d.send('capitalise two');
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'one\ntwo\nthree, written by a command\n');
    assert.match(d.toolResults(1)[0] ?? '', /changed on disk/);
  });

  it('Open Masked Observation refuses a stored file a command replaced with a hard link', async () => {
    const store = await a.openStore();
    const dir = path.join(store.root, 'tool-outputs');
    fs.mkdirSync(dir, { recursive: true });
    const stored = path.join(dir, 'es-linked.txt');
    const outside = twinOutside(__filename, 'private key\n');
    fs.linkSync(outside, stored);
    try {
      assert.equal(await vscode.commands.executeCommand('contextDesk.openStored', stored), false);
      assert.notEqual(vscode.window.activeTextEditor?.document.uri.fsPath, fs.realpathSync(stored));
    } finally {
      fs.rmSync(stored);
    }
  });

  it('Open Terminal Log refuses a log a command replaced with a hard link, and says why', async () => {
    const terminal = vscode.window.createTerminal({ name: 'es-log', shellPath: '/bin/bash' });
    try {
      await waitFor(() => terminal.shellIntegration !== undefined, 30_000, 'shell integration');
      terminal.show();
      terminal.shellIntegration!.executeCommand('echo es-log-marker');
      let log: string | undefined;
      await waitFor(async () => (log = await a.terminals().logPath(terminal)) !== undefined, 15_000, 'the log');
      await waitFor(() => vscode.window.activeTerminal === terminal, 10_000, 'the terminal is active');
      const outside = twinOutside(__filename, 'private key\n');
      fs.rmSync(log!);
      fs.linkSync(outside, log!);
      const opened = await vscode.commands.executeCommand('contextDesk.openTerminalLog');
      assert.equal(opened, false);
      assert.notEqual(vscode.window.activeTextEditor?.document.uri.fsPath, fs.realpathSync(log!));
      assert.equal(fs.readFileSync(outside, 'utf8'), 'private key\n');
    } finally {
      terminal.dispose();
    }
  });
});
