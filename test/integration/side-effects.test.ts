// Edits and commands that respect the user, in a real VS Code: the diff editor while approval is
// pending, edits computed when approved (refused if their target changed), unsaved user work never
// saved, an edit through a link named with where it leads, commands that run in the folder their approval names, commands that ignore Ctrl-C killed
// after a grace period, and New Chat during a run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { AgentDriver } from './driver';
import { api, waitFor, workspaceRoot } from './helpers';

const edit = (file: string, oldText: string, newText: string) => ({
  reply: { toolCalls: [{ name: 'edit_file', arguments: { path: file, old_text: oldText, new_text: newText } }] },
});

const command = (text: string, cwd?: string) => ({
  reply: { toolCalls: [{ name: 'run_command', arguments: { command: text, ...(cwd ? { cwd } : {}) } }] },
});

/** A line of `text` that is exactly `line` (a terminal may end lines with \r). */
const lineOf = (line: string): RegExp => new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r?$`, 'm');

function proposedTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs.map((t) => t.input))
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff)
    .filter((i) => i.modified.scheme === 'context-desk-proposed');
}

/** What a person typing does to the buffer (the editor may be behind the diff editor by then). */
async function type(doc: vscode.TextDocument, change: (e: vscode.WorkspaceEdit) => void): Promise<void> {
  const e = new vscode.WorkspaceEdit();
  change(e);
  assert.ok(await vscode.workspace.applyEdit(e));
}

/** No process has this command line any more (it was killed with its terminal). */
function running(args: string[]): boolean {
  return fs.readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `${args.join('\0')}\0`;
    } catch {
      return false;
    }
  });
}

describe('Edits and commands that respect the user', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let d: AgentDriver;
  const file = (name: string): string => path.join(workspaceRoot(), name);

  before(async () => {
    a = await api();
    d = new AgentDriver(a);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await d.dispose();
  });

  it('shows the edit in a diff editor, follows the user typing meanwhile, and applies to the document as approved', async () => {
    fs.writeFileSync(file('se-clean.txt'), 'alpha\nbeta\ngamma\n');
    const doc = await vscode.workspace.openTextDocument(file('se-clean.txt'));
    await vscode.window.showTextDocument(doc);
    await d.script([edit('se-clean.txt', 'beta', 'BETA'), { reply: { text: 'done' } }]);
    await d.send('capitalise beta');
    const request = await d.approval('edit');
    await waitFor(() => proposedTabs().length === 1, 10_000, 'the diff editor');
    const proposed = (): string =>
      vscode.workspace.textDocuments
        .find((x) => x.uri.toString() === proposedTabs()[0]!.modified.toString())
        ?.getText() ?? '';
    assert.equal(proposed(), 'alpha\nBETA\ngamma\n');
    // The user adds a line and saves while the approval waits: the proposal follows.
    await type(doc, (e) => e.insert(doc.uri, new vscode.Position(0, 0), 'zero\n'));
    await doc.save();
    await waitFor(() => proposed() === 'zero\nalpha\nBETA\ngamma\n', 10_000, 'the proposal follows the document');
    d.answer(request, true);
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(file('se-clean.txt'), 'utf8'), 'zero\nalpha\nBETA\ngamma\n');
    assert.equal(doc.isDirty, false, 'only the agent edit was in the buffer, and it was saved');
    assert.equal(proposedTabs().length, 0, 'the diff editor closes with the answer');
  });

  it('an edit through a committed link names where it leads, and warns when that file runs programs', async () => {
    const tasks = fs.readFileSync(file('.vscode/tasks.json'), 'utf8');
    fs.mkdirSync(file('se-docs'), { recursive: true });
    fs.symlinkSync('../.vscode/tasks.json', file('se-docs/build-matrix.json'));
    const overwrite = { name: 'edit_file', arguments: { path: 'se-docs/build-matrix.json', new_text: '{}\n' } };
    await d.script([{ reply: { toolCalls: [overwrite] } }, { reply: { text: 'ok' } }]);
    await d.send('update the build matrix');
    const request = await d.approval('edit');
    const name = 'se-docs/build-matrix.json → .vscode/tasks.json';
    assert.equal(
      request.title,
      `Apply this edit to ${name}? Careful: VS Code reads it: it can name programs that run in this workspace.`,
    );
    assert.match(request.detail, new RegExp(`^overwrite ${name} \\(`));
    await waitFor(() => proposedTabs().length === 1, 10_000, 'the diff editor');
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'context-desk-proposed');
    assert.equal(tab?.label, `${name} ↔ proposed edit`);
    d.answer(request, false);
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(file('.vscode/tasks.json'), 'utf8'), tasks, 'declined: nothing written');
    fs.rmSync(file('se-docs'), { recursive: true });
  });

  it('refuses an edit whose target text changed while it waited, and says so', async () => {
    fs.writeFileSync(file('se-changed.txt'), 'one\ntwo\nthree\n');
    const doc = await vscode.workspace.openTextDocument(file('se-changed.txt'));
    await vscode.window.showTextDocument(doc);
    await d.script([edit('se-changed.txt', 'two', 'TWO'), { reply: { text: 'ok' } }]);
    await d.send('capitalise two');
    const request = await d.approval('edit');
    await type(doc, (e) => e.replace(doc.uri, new vscode.Range(1, 0, 1, 3), 'deux'));
    await doc.save();
    d.answer(request, true);
    assert.equal(await d.finished(), 'completed');
    const [result] = d.toolResults(1);
    assert.match(result ?? '', /se-changed\.txt changed while the edit waited for approval: old_text was not found/);
    assert.match(result ?? '', /Nothing was applied/);
    assert.equal(fs.readFileSync(file('se-changed.txt'), 'utf8'), 'one\ndeux\nthree\n');
  });

  it('edits a document with unsaved user changes in the editor and never saves them', async () => {
    // VS Code for the Web saves after a delay by default: turn that off so unsaved work stays unsaved.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    fs.writeFileSync(file('se-dirty.txt'), 'first\nsecond\n');
    const doc = await vscode.workspace.openTextDocument(file('se-dirty.txt'));
    await vscode.window.showTextDocument(doc);
    await type(doc, (e) => e.insert(doc.uri, new vscode.Position(0, 0), 'user-unsaved\n'));
    assert.ok(doc.isDirty);
    await d.script([edit('se-dirty.txt', 'second', 'SECOND'), { reply: { text: 'ok' } }], {
      'agent.approveCommands': false,
    });
    await d.send('capitalise second');
    assert.equal(await d.finished(), 'completed');
    assert.equal(doc.getText(), 'user-unsaved\nfirst\nSECOND\n', 'both changes are in the editor');
    assert.equal(doc.isDirty, true, 'still unsaved');
    assert.equal(fs.readFileSync(file('se-dirty.txt'), 'utf8'), 'first\nsecond\n', 'nothing saved to disk');
    assert.match(d.toolResults(1)[0] ?? '', /did not save it: the file had unsaved changes of the user/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('keeps a CRLF file CRLF when the model writes plain newlines', async () => {
    fs.writeFileSync(file('se-crlf.txt'), 'a\r\nb\r\nc\r\n');
    await d.script([edit('se-crlf.txt', 'a\nb', 'A\nB'), { reply: { text: 'ok' } }], {
      'agent.approveCommands': false,
    });
    await d.send('capitalise a and b');
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(file('se-crlf.txt'), 'utf8'), 'A\r\nB\r\nc\r\n');
  });

  it('runs each command in the folder its approval names, wherever an earlier command left the terminal', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'se-outside-'));
    fs.writeFileSync(path.join(outside, 'precious.txt'), 'keep');
    fs.mkdirSync(file('se-sub'), { recursive: true });
    const moved = `cd '${outside}' && echo moved`;
    await d.script([command(moved), command('pwd; ls'), command('pwd', 'se-sub'), { reply: { text: 'done' } }]);
    await d.send('move away, then look around');
    const first = await d.approval('command');
    assert.equal(first.detail, `${moved}\n(in ${workspaceRoot()})`);
    d.answer(first, true);
    // The reused terminal's shell is in `outside` now; the next command is approved for the workspace.
    const second = await d.approval('command', first);
    assert.equal(
      second.detail,
      `pwd; ls\n(in ${workspaceRoot()})`,
      'the approval shows the command as the model wrote it',
    );
    d.answer(second, true);
    const third = await d.approval('command', second);
    assert.equal(third.detail, `pwd\n(in ${file('se-sub')})`);
    d.answer(third, true);
    assert.equal(await d.finished(), 'completed');
    const ran = d.toolResults(2).at(-1) ?? '';
    assert.match(ran, lineOf(workspaceRoot()), 'it ran in the workspace');
    assert.doesNotMatch(ran, /precious\.txt/);
    assert.match(d.toolResults(3).at(-1) ?? '', lineOf(file('se-sub')));
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a command that ignores Ctrl-C is killed after the grace period; the run goes on', async () => {
    const sleep = ['sleep', '987.651'];
    await d.script(
      [
        {
          reply: {
            toolCalls: [
              {
                name: 'run_command',
                arguments: { command: `trap '' INT; echo started-ignoring; ${sleep.join(' ')}`, timeout_seconds: 2 },
              },
            ],
          },
        },
        { reply: { text: 'it was stopped' } },
      ],
      { 'agent.approveCommands': false },
    );
    await d.send('run something stubborn');
    assert.equal(await d.finished(60_000), 'completed', 'the run did not block on the process');
    const [result] = d.toolResults(1);
    assert.match(result ?? '', /started-ignoring/);
    assert.match(
      result ?? '',
      /\[stopped after 2 s: Ctrl-C sent; it did not stop within 3 s, so its terminal was closed\]/,
    );
    assert.match(result ?? '', /\[exit code: unknown\]/);
    await waitFor(() => !running(sleep), 10_000, 'the process that ignored SIGINT is gone');
  });

  it('New Chat during a command stops it and still writes the stopped run to its history, output stored', async () => {
    const sleep = ['sleep', '987.652'];
    await d.script(
      [
        {
          reply: {
            toolCalls: [{ name: 'run_command', arguments: { command: `trap '' INT; seq 1 3000; ${sleep.join(' ')}` } }],
          },
        },
        { reply: { text: 'never asked' } },
      ],
      { 'agent.approveCommands': false },
    );
    const session = a.chat().snapshot.sessionId;
    await d.send('count and wait');
    await waitFor(() => running(sleep), 30_000, 'the command runs');
    a.chat().newChat();
    assert.notEqual(a.chat().snapshot.sessionId, session);
    const jsonl = path.join(a.contextFolder(), 'history', `${session}.jsonl`);
    type Rec = { message?: { role: string; content: string; storedAt?: string } }; // call records have none
    let tool: Rec | undefined;
    await waitFor(
      () => {
        if (!fs.existsSync(jsonl)) return false;
        const records = fs
          .readFileSync(jsonl, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Rec);
        tool = records.find((r) => r.message?.role === 'tool');
        return tool !== undefined;
      },
      30_000,
      'the stopped tool call in the old session history',
    );
    assert.match(tool!.message!.content, /\[stopped by the user: Ctrl-C sent; it did not stop within 3 s/);
    assert.match(tool!.message!.content, /Full output \(3\d\d\d lines/, 'the long output was stored');
    assert.ok(tool!.message!.storedAt && fs.existsSync(path.join(workspaceRoot(), tool!.message!.storedAt)));
    await waitFor(() => !running(sleep), 10_000, 'the command is gone');
  });
});
