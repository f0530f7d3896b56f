// The three language-model tools as another agent uses them: through vscode.lm.invokeTool, with
// refused paths (traversal, a link out of the store, a missing file) and a file larger than the read cap.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, waitFor } from './helpers';

async function invoke(name: string, input: object): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('Language-model tools', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let terminal: vscode.Terminal | undefined;
  const made: string[] = [];

  before(async () => {
    a = await api();
    assert.ok(
      ['contextDesk_grepLogs', 'contextDesk_readStoredFile', 'contextDesk_listTerminals'].every((n) =>
        vscode.lm.tools.some((t) => t.name === n),
      ),
      'the tools are registered',
    );
  });
  after(() => {
    terminal?.dispose();
    for (const f of made) fs.rmSync(f, { force: true });
  });

  it('lists terminals with their logs, greps them and reads a log back by range', async () => {
    terminal = vscode.window.createTerminal({ name: 'lm-tools', shellPath: '/bin/bash' });
    await waitFor(() => terminal!.shellIntegration !== undefined, 30_000, 'shell integration');
    const marker = `lm-marker-${Date.now()}`;
    const execution = terminal.shellIntegration!.executeCommand(`sleep 0.3; echo ${marker}; (exit 3)`);
    await new Promise<void>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution === execution) {
          sub.dispose();
          resolve();
        }
      });
    });
    let list = '';
    await waitFor(
      async () => /\(exit 3\)/.test((list = await invoke('contextDesk_listTerminals', {}))),
      15_000,
      'the listing with the last command',
    );
    const row = list.split('\n').find((l) => l.startsWith('lm-tools: captured'));
    assert.ok(row, list);
    const log = /log: (\S+\.log)/.exec(row)![1]!;
    assert.match(row, new RegExp(`last command: "sleep 0.3; echo ${marker}; \\(exit 3\\)" \\(exit 3\\)`));

    const grep = await invoke('contextDesk_grepLogs', { pattern: marker, scope: 'terminals', fixed: true });
    const hits = grep.split('\n');
    assert.ok(
      hits.some((h) => h.startsWith(`${log}:`) && h.endsWith(`: ${marker}`)),
      grep,
    );
    assert.ok(
      hits.every((h) => !h.includes('.index.jsonl')),
      'the machine-readable index never shows up in grep',
    );
    assert.match(await invoke('contextDesk_grepLogs', { pattern: '([unclosed' }), /^grep failed: /);

    const read = await invoke('contextDesk_readStoredFile', { path: log, offset: 1, limit: 3 });
    assert.match(read, new RegExp(`^${log.replace(/\./g, '\\.')} lines 1-3 of \\d+:\n1\t␞ #1 · `));
    assert.match(read, new RegExp(`\n2\t␞ \\$ sleep 0.3; echo ${marker}`));
  });

  it('refuses traversal, absolute paths outside the store, links out of it and missing files', async () => {
    const store = a.contextFolder();
    const outside = path.join(path.dirname(store), `outside-${Date.now()}.txt`);
    fs.writeFileSync(outside, 'secret outside the store\n');
    made.push(outside);
    const link = path.join(store, 'tool-outputs', `link-out-${Date.now()}.txt`);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(outside, link);
    made.push(link);
    const refusals: [string, RegExp][] = [
      ['../../../../etc/passwd', /'\.\.' is not allowed/],
      ['/etc/passwd', /outside the Context Desk folder/],
      [path.relative(path.dirname(store), link), /link that leads outside/],
      ['.context-desk/tool-outputs/no-such-file.txt', /no such file/],
    ];
    for (const [p, why] of refusals) {
      const text = await invoke('contextDesk_readStoredFile', { path: p });
      assert.match(text, /^Refused to open /, `${p}: ${text}`);
      assert.match(text, why, p);
      assert.doesNotMatch(text, /secret outside|root:/);
    }
  });

  it('reads a stored file larger than the read cap by range, at most 2000 lines at a time', async () => {
    const file = path.join(a.contextFolder(), 'tool-outputs', `huge-${Date.now()}.txt`);
    made.push(file);
    const fd = fs.openSync(file, 'w');
    const block = Array.from({ length: 10_000 }, (_, i) => `row ${i} ${'z'.repeat(90)}`).join('\n') + '\n';
    for (let i = 0; i < 60; i++) fs.writeSync(fd, block); // ~60 MB: over the 50 MB counting cap
    fs.closeSync(fd);
    const display = path.relative(path.dirname(a.contextFolder()), file);
    const head = await invoke('contextDesk_readStoredFile', { path: display, offset: 9_999, limit: 3 });
    assert.equal(
      head,
      `${display} lines 9999-10001:\n9999\trow 9998 ${'z'.repeat(90)}\n10000\trow 9999 ${'z'.repeat(90)}\n10001\trow 0 ${'z'.repeat(90)}\n(more lines follow in this ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB file; read on with offset 10002, or tail or grep it)`,
    );
    const capped = await invoke('contextDesk_readStoredFile', { path: display, offset: 1, limit: 5000 });
    assert.equal(capped.split('\n').filter((l) => /^\d+\t/.test(l)).length, 2000, 'the cap of read_file');
  });
});
