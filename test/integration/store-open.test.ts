// Store files opened in the editor, in a real VS Code: what is shown is the text read from the file
// that was checked, so a link a command swaps in right after the check (the test's seam) shows nothing
// foreign, and nothing typed into the editor can be saved to the link's target. Every opener (stored
// outputs, terminal logs, grep matches, transcripts, MCP tool descriptions) goes through the same path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, waitFor } from './helpers';

const HOOK = Symbol.for('contextDesk.test.afterStoreFileCheck');
type Hooked = { [HOOK]?: (file: string) => unknown };

function outsideFile(text: string): string {
  const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cd-so-outside-')), 'victim.txt');
  fs.writeFileSync(outside, text);
  return outside;
}

/** After the check, the checked file is replaced by a link to `outside`. */
function swapForLinkAfterCheck(outside: string): void {
  (globalThis as Hooked)[HOOK] = (file) => {
    delete (globalThis as Hooked)[HOOK];
    fs.rmSync(file);
    fs.symlinkSync(outside, file);
  };
}

const activeText = (): string | undefined => vscode.window.activeTextEditor?.document.getText();

describe('Store files opened in the editor', function () {
  this.timeout(90_000);
  let a: ContextDeskApi;
  let root: string;

  before(async () => {
    a = await api();
    root = (await a.openStore()).root;
  });
  afterEach(async () => {
    delete (globalThis as Hooked)[HOOK];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a stored output swapped for a link after its check shows the checked text, read-only', async () => {
    const dir = path.join(root, 'tool-outputs');
    fs.mkdirSync(dir, { recursive: true });
    const stored = path.join(dir, 'so-swap.txt');
    fs.writeFileSync(stored, 'the stored output\n');
    const outside = outsideFile('private key\n');
    swapForLinkAfterCheck(outside);
    assert.equal(await vscode.commands.executeCommand('contextDesk.openStored', stored), true);
    await waitFor(() => activeText() !== undefined, 10_000, 'an editor opens');
    const doc = vscode.window.activeTextEditor!.document;
    assert.ok(doc.getText().startsWith('the stored output\n'), doc.getText());
    // The swap is a change of the file: read again, it is refused and the checked text stays.
    await waitFor(
      () => /\(Context Desk: not read again: .*leads outside the Context Desk folder/.test(doc.getText()),
      10_000,
      'the refusal below the checked text',
    );
    assert.ok(doc.getText().startsWith('the stored output\n'), doc.getText());
    assert.equal(path.basename(doc.uri.path), 'so-swap.txt', 'the tab names the file');
    // Nothing reaches the link's target: the document is not the file on disk.
    assert.notEqual(doc.uri.scheme, 'file');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'pwned ');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, Buffer.from('pwned\n'))));
    assert.equal(fs.readFileSync(outside, 'utf8'), 'private key\n');
    assert.doesNotMatch(activeText() ?? '', /private key/);
  });

  it('a transcript and an MCP tool description are read from the checked file too', async () => {
    const store = await a.openStore();
    const transcript = store.historyPaths('so-transcript').markdown;
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    const text = '# the transcript\nFull output (3 lines, ~9 tokens): tool-outputs/so.txt - read, tail or grep it\n';
    fs.writeFileSync(transcript, text);
    swapForLinkAfterCheck(outsideFile('private key\n'));
    assert.equal(await a.chat().openTranscript('so-transcript'), true);
    await waitFor(() => activeText() !== undefined, 10_000, 'the transcript opens');
    // (A note may follow once the swap is seen: the checked text is never replaced by the link's.)
    assert.ok(activeText()!.startsWith(text), activeText());
    assert.doesNotMatch(activeText()!, /private key/);
    const doc = vscode.window.activeTextEditor!.document;
    assert.notEqual(doc.uri.scheme, 'file');
    // Its links to stored outputs still work in the read-only document.
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    assert.ok(
      links.some((l) => /contextDesk\.openStored/.test(l.target?.toString(true) ?? '')),
      JSON.stringify(links.map((l) => l.target?.toString(true))),
    );

    // A description outside the store (a node handed to the command) is refused, not opened.
    const mcpDir = path.join(root, 'mcp', 'so-server');
    fs.mkdirSync(mcpDir, { recursive: true });
    const server = { name: 'so', folderName: 'so-server', tools: [] };
    const foreign = outsideFile('private key\n');
    await vscode.commands.executeCommand('contextDesk.mcp.openDescription', {
      kind: 'tool',
      server,
      tool: { name: 'x', summary: '', file: foreign },
    });
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.path, foreign);
    assert.doesNotMatch(activeText() ?? '', /private key/);

    const description = path.join(mcpDir, 'echo.json');
    fs.writeFileSync(description, '{"name":"echo"}\n');
    swapForLinkAfterCheck(foreign);
    await vscode.commands.executeCommand('contextDesk.mcp.openDescription', {
      kind: 'tool',
      server,
      tool: { name: 'echo', summary: '', file: description },
    });
    await waitFor(() => /echo/.test(activeText() ?? ''), 10_000, 'the description opens');
    assert.ok(activeText()!.startsWith('{"name":"echo"}\n'), activeText());
    assert.doesNotMatch(activeText()!, /private key/);
  });

  it('a store document VS Code opens by itself (a restored tab, a link) is read only as a file of the store', async () => {
    const stored = path.join(root, 'tool-outputs', 'so-restored.txt');
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.writeFileSync(stored, 'restored text\n');
    const own = await vscode.workspace.openTextDocument(
      vscode.Uri.file(fs.realpathSync(stored)).with({ scheme: 'context-desk-store' }),
    );
    assert.equal(own.getText(), 'restored text\n');
    const foreign = outsideFile('private key\n');
    const refused = await vscode.workspace.openTextDocument(
      vscode.Uri.file(foreign).with({ scheme: 'context-desk-store' }),
    );
    assert.match(refused.getText(), /^\(Context Desk: .*leads outside the Context Desk folder/);
    assert.doesNotMatch(refused.getText(), /private key/);
  });

  it('an open terminal log follows what the terminal prints next', async () => {
    const terminal = vscode.window.createTerminal({ name: 'so-log', shellPath: '/bin/bash' });
    try {
      await waitFor(() => terminal.shellIntegration !== undefined, 30_000, 'shell integration');
      terminal.show();
      terminal.shellIntegration!.executeCommand('sleep 0.5; echo so-first-$((1+1))');
      let log: string | undefined;
      await waitFor(async () => (log = await a.terminals().logPath(terminal)) !== undefined, 15_000, 'the log');
      await waitFor(() => /so-first-2/.test(fs.readFileSync(log!, 'utf8')), 15_000, 'the first output logged');
      await waitFor(() => vscode.window.activeTerminal === terminal, 10_000, 'the terminal is active');
      assert.equal(await vscode.commands.executeCommand('contextDesk.openTerminalLog'), true);
      await waitFor(() => /so-first-2/.test(activeText() ?? ''), 10_000, 'the log opens');
      terminal.shellIntegration!.executeCommand('sleep 0.5; echo so-second-$((2+1))');
      await waitFor(() => /so-second-3/.test(activeText() ?? ''), 20_000, 'the open log shows the new output');
    } finally {
      terminal.dispose();
    }
  });
});
