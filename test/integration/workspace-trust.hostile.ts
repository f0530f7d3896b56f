// A hostile workspace in the real VS Code, with workspace trust on (scripts/lib/hostile-workspace.ts
// builds it). Untrusted: its settings take no effect, no MCP server starts, the store is not in the
// workspace. Trusted (the runner clicks "Trust" when asked): the store refuses "." and its links, so
// nothing outside the workspace changes, and what lands on disk has no control characters or secrets.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { HistoryWriter } from '../../src/core/store/history';
import { TerminalLogWriter } from '../../src/core/store/terminal-log';
import { ToolOutputStore } from '../../src/core/store/tool-outputs';
import { StoreSymlinkError } from '../../src/core/store/errors';
import { createTokenizer } from '../../src/core/tokens';
import { api, withTimeout, workspaceRoot } from './helpers';
import { HOSTILE_DB_PASSWORD, HOSTILE_TOKEN } from '../../scripts/lib/hostile-workspace';

const base = process.env.CONTEXT_DESK_HOSTILE_BASE ?? '';
const sibling = path.join(base, 'sibling');
const startedFile = path.join(base, 'started.txt');
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Every entry under a folder (links as links, never followed) with its content: a checksum of the tree. */
function checksum(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      h.update(`${path.relative(dir, p)}|${st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file'}|`);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** The content of every real file under a folder (links skipped). */
function realFiles(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...realFiles(p));
    else if (e.isFile()) out.push({ file: p, text: fs.readFileSync(p, 'utf8') });
  }
  return out;
}

const symlinkRefusal = (e: unknown): boolean => e instanceof Error && e.name === 'StoreSymlinkError';

describe('A hostile workspace (workspace trust on)', function () {
  this.timeout(180_000);
  let a: ContextDeskApi;
  let siblingBefore: string;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');

  before(async () => {
    assert.ok(base, 'the runner names the hostile workspace');
    siblingBefore = checksum(sibling);
    a = await api();
  });

  it('untrusted: its settings take no effect, no MCP server starts, the store stays out of the workspace', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(config().get('storeFolder'), '.context-desk');
    assert.equal(config().get('agent.approveCommands'), true);
    assert.equal(config().get('agent.baseUrl'), 'http://127.0.0.1:11434/v1');
    assert.deepEqual(config().get('skills.folders'), []);
    const ws = workspaceRoot();
    assert.ok(!a.contextFolder().startsWith(ws + path.sep), `store ${a.contextFolder()} is not in the workspace`);
    const states = await a.tools().mcp.refresh();
    const mine = states.filter((s) => s.name !== 'vscode');
    assert.deepEqual(
      mine.map((s) => `${s.name}:${s.status}`),
      ['hostile:disabled', 'crasher:disabled'],
    );
    assert.match(mine[0]!.message!, /untrusted/);
    assert.equal(fs.existsSync(startedFile), false, 'the hostile server was never started');
  });

  it('trusted: "." is refused, links under .context-desk are refused, nothing outside changes', async () => {
    const granted = new Promise<void>((resolve) => vscode.workspace.onDidGrantWorkspaceTrust(() => resolve()));
    await vscode.commands.executeCommand('workbench.trust.manage');
    console.log('CONTEXT_DESK_GRANT_TRUST');
    await withTimeout(granted, 60_000, 'the runner granting trust');
    assert.equal(vscode.workspace.isTrusted, true);
    // Now the workspace's settings apply (that is what trusting means), except those that relax a
    // safeguard: approvals stay on whatever the workspace says...
    assert.equal(config().get('agent.approveCommands'), true);
    assert.equal(config().get('storeFolder'), '.');
    // ...and the store refuses the workspace root and falls back to .context-desk.
    const ws = workspaceRoot();
    const store = await a.openStore();
    assert.equal(store.root, path.join(ws, '.context-desk'));
    assert.equal(a.contextFolder(), path.join(ws, '.context-desk'));
    assert.ok(!fs.existsSync(path.join(ws, '.gitignore')), 'no .gitignore at the workspace root');

    // MCP: trusting the folder does not start what its config names; the user's Start does.
    const waiting = await a.tools().mcp.refresh();
    assert.deepEqual(
      waiting.filter((s) => s.name !== 'vscode').map((s) => `${s.name}:${s.status}`),
      ['hostile:disabled', 'crasher:disabled'],
    );
    assert.equal(fs.existsSync(startedFile), false, 'trust alone starts no server');
    // Started, the hostile server's folder is a link (refused), the index is a link (refused).
    const states = await a.tools().mcp.startWaitingServers();
    const by = new Map(states.map((s) => [s.name, s]));
    assert.equal(by.get('hostile')?.status, 'connected', by.get('hostile')?.message);
    assert.equal(by.get('hostile')?.tools.length, 6);
    assert.equal(by.get('crasher')?.status, 'error');
    assert.ok(fs.existsSync(startedFile));
    assert.ok(fs.lstatSync(path.join(store.root, 'mcp', 'hostile')).isSymbolicLink(), 'the link is left alone');
    const crasherMd = fs.readFileSync(path.join(store.root, 'mcp', by.get('crasher')!.folderName, 'SERVER.md'), 'utf8');
    assert.match(crasherMd, /Status: error/);
    assert.match(crasherMd, /REDACTED/);

    // The config linked to /dev/zero is refused at once, named; the hostile skills are diagnosed, quickly.
    assert.deepEqual(
      a.tools().mcp.manager.configErrors.map((e) => e.message),
      [`${path.join(ws, '.cursor', 'mcp.json')} is not a regular file (a character device); it is not read`],
    );
    const started = Date.now();
    const skills = await a.tools().skills.refresh();
    assert.ok(Date.now() - started < 10_000, `skills discovered in ${Date.now() - started} ms`);
    assert.ok(!skills.some((s) => s.name === 'keys' || s.name === 'bomb'));
    const problems = (name: string): string[] =>
      vscode.languages
        .getDiagnostics(vscode.Uri.file(path.join(ws, '.claude', 'skills', name, 'SKILL.md')))
        .map((d) => d.message);
    assert.deepEqual(problems('keys'), ['the front matter is not closed by a "---" line within its first 16 KB']);
    assert.deepEqual(problems('bomb'), [
      'the front matter cannot be read: Excessive alias count indicates a resource exhaustion attack',
    ]);

    // History, a terminal log and a tool-output index: each a link, each refused.
    await assert.rejects(HistoryWriter.open(store, 'chat-1'), symlinkRefusal);
    await assert.rejects(TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1 }), symlinkRefusal);
    const tokenizer = createTokenizer('chars4');
    await assert.rejects(
      new ToolOutputStore(store, tokenizer).save({ session: 's1', turn: 1, tool: 'run', output: 'y\n'.repeat(10_000) }),
      symlinkRefusal,
    );
    assert.ok(StoreSymlinkError, 'the error class exists (refusals above are matched by name across bundles)');

    // Nothing outside the workspace changed; nothing on disk carries control characters or secrets.
    assert.equal(checksum(sibling), siblingBefore, 'the sibling folder is byte-for-byte as before');
    for (const { file, text } of realFiles(store.root)) {
      assert.doesNotMatch(text, RAW_CONTROL, `${file} has a raw control character`);
      assert.ok(!text.includes(HOSTILE_TOKEN) && !text.includes(HOSTILE_DB_PASSWORD), `${file} holds a secret`);
    }
  });
});
