// Files as the agent's memory, in a real VS Code: terminals captured to logs, long outputs stored and
// previewed, masked observations opened, grep over the store, traversal refused, secrets redacted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');
const FAKE_AWS_KEY = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');

async function runInNewTerminal(command: string): Promise<{ terminal: vscode.Terminal; exitCode: number | undefined }> {
  const terminal = vscode.window.createTerminal({ name: `it-${Date.now()}`, shellPath: '/bin/bash' });
  terminal.show();
  await waitFor(() => terminal.shellIntegration !== undefined, 30_000, 'shell integration in bash');
  const execution = terminal.shellIntegration!.executeCommand(command);
  const exitCode = await new Promise<number | undefined>((resolve) => {
    const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.execution === execution) {
        sub.dispose();
        resolve(e.exitCode);
      }
    });
  });
  return { terminal, exitCode };
}

describe('Files as memory', function () {
  this.timeout(90_000);
  let a: ContextDeskApi;
  let server: ScriptedServer | undefined;

  before(async () => {
    a = await api();
  });
  after(async () => {
    await server?.close();
    for (const key of ['agent.baseUrl', 'agent.model', 'agent.approveCommands', 'strategy', 'maskingWindow'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('captures a bash command in an integrated terminal with its exit code, secrets redacted', async () => {
    // VS Code's read() only sees output after the start event reaches the extension; an instant echo can
    // arrive with the start marker itself, so the command waits a moment first (a known API limitation).
    const { terminal, exitCode } = await runInNewTerminal(
      `sleep 0.5; echo "marker-$((40+2)) key=${FAKE_AWS_KEY}"; (exit 3)`,
    );
    assert.equal(exitCode, 3);
    let log: string | undefined;
    await waitFor(
      async () => {
        const p = await a.terminals().logPath(terminal);
        log = p && fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
        return !!log && /^␞ exit 3 · /m.test(log);
      },
      15_000,
      'the log with the footer',
    );
    assert.match(log!, /marker-42/, `the output a person saw; the log:\n${log}`);
    assert.match(log!, /^␞ \$ sleep 0\.5; echo/m, 'the header names the command');
    assert.doesNotMatch(log!, new RegExp(FAKE_AWS_KEY), 'the key never reaches disk');
    assert.ok(path.resolve((await a.terminals().logPath(terminal))!).startsWith(a.contextFolder()));
    const gitignore = fs.readFileSync(path.join(a.contextFolder(), '.gitignore'), 'utf8');
    assert.match(gitignore, /^\*$/m);
    terminal.dispose();
  });

  it('stores a 5 MB tool output, previews it, and opens the masked observation', async () => {
    let call = 0;
    server = await startScriptedModelServer([
      () => ({ reply: { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 700000' } }] } }),
      () => ({ reply: { toolCalls: [{ name: 'run_command', arguments: { command: 'echo small' } }] } }),
      () => ({ reply: { toolCalls: [{ name: 'run_command', arguments: { command: 'echo small again' } }] } }),
      () => ({ reply: { text: `done ${++call}` } }),
    ]);
    const settings: Record<string, unknown> = {
      'agent.baseUrl': server.baseURL,
      'agent.model': 'scripted',
      'agent.approveCommands': false,
      strategy: 'masking',
      maskingWindow: 1,
    };
    for (const [k, v] of Object.entries(settings)) await config().update(k, v, vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    assert.ok(a.chat().send('produce a long output').accepted);
    await waitFor(() => a.chat().snapshot.status !== 'running', 60_000, 'the run ends');
    assert.equal(a.chat().snapshot.status, 'completed');

    const second = server.chatRequests()[1]!;
    const toolResult = second.messages.find((m) => m.role === 'tool')!.content ?? '';
    const pointer = /Full output \((\d+) lines, ~?(\d+) tokens\): (\S+) - read, tail or grep it/.exec(toolResult);
    assert.ok(pointer, 'the model got a preview and the pointer line');
    assert.ok(toolResult.length < 20_000, 'the preview is short');
    const stored = path.join(path.dirname(a.contextFolder()), pointer[3]!);
    const full = fs.readFileSync(stored, 'utf8');
    assert.ok(full.length > 4_500_000, `the file holds the full output (${full.length} chars)`);
    assert.match(full, /^699999$/m);

    const fourth = server.chatRequests()[3]!;
    assert.ok(
      fourth.messages.some(
        (m) => m.role === 'tool' && /Old environment output: \(\d+ lines omitted; full text: /.test(m.content ?? ''),
      ),
      'the old output is masked, naming its file',
    );
    const masked = a
      .chat()
      .snapshot.items.flatMap((i) => (i.kind === 'assistant' ? i.tools : []))
      .find((t) => t.masked);
    assert.ok(masked?.storedAt, 'the panel knows the masked observation and its file');
    assert.equal(await vscode.commands.executeCommand('contextDesk.openMaskedObservation', masked.storedAt), true);
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.fsPath === fs.realpathSync(stored),
      10_000,
      'the stored file opens',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('refuses a traversal reference with a clear message', async () => {
    assert.equal(await vscode.commands.executeCommand('contextDesk.openStored', '../../../../etc/passwd'), false);
    assert.equal(await vscode.commands.executeCommand('contextDesk.openStored', '/etc/passwd'), false);
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.fsPath, '/etc/passwd');
  });

  it('Grep Terminals finds a line and opens it', async () => {
    await vscode.commands.executeCommand('contextDesk.grepTerminals', 'terminals', 'marker-42');
    // Accepting before the matches arrive does nothing: accept until the log opens.
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return /terminals/.test(vscode.window.activeTextEditor?.document.uri.fsPath ?? '');
      },
      15_000,
      'the log opens',
      250,
    );
    const editor = vscode.window.activeTextEditor!;
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /marker-42/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
