// Searches of the Context Desk folder leave out a file with other names (a hard link a command made,
// `ln ~/.ssh/id_rsa .context-desk/tool-outputs/…`): its lines never reach the model or the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../support/cli';
import { ContextStore } from '../../../src/core/store/context-store';
import { grepStoreToFd } from '../../../src/core/search/store-grep';
import { createWorkspaceTools } from '../../../src/core/agent/tools';
import { grepText } from '../../../src/core/agent/tools/store-answers';
import type { ToolContext } from '../../../src/core/agent/tool-registry';

const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };

/** A workspace whose store holds one output of its own and one hard link to a "secret" outside it. */
async function linkedStore(t: { after(fn: () => Promise<void>): void }) {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-grep-link-')));
  t.after(() => rm(base, { recursive: true, force: true }));
  const ws = path.join(base, 'ws');
  await fsp.mkdir(ws);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const outputs = path.join(store.root, 'tool-outputs', 's1');
  await fsp.mkdir(outputs, { recursive: true });
  await fsp.writeFile(path.join(outputs, '0001-shell.txt'), 'token: stored-by-us\n');
  const secret = path.join(base, 'id_rsa');
  await fsp.writeFile(secret, 'token: PRIVATE-KEY-BYTES\n');
  await fsp.link(secret, path.join(outputs, '0002-shell.txt'));
  return { ws, store };
}

test("the agent's grep in the store leaves out a hard-linked file and says so; named, it is refused", async (t) => {
  const { ws, store } = await linkedStore(t);
  const grep = createWorkspaceTools({ workspaceRoot: ws, storeRoot: store.root }).find((x) => x.name === 'grep')!;
  const out = await grep.run({ pattern: 'token', path: '.context-desk' }, ctx);
  assert.doesNotMatch(out.text, /PRIVATE-KEY-BYTES/);
  assert.match(out.text, /^\.context-desk\/tool-outputs\/s1\/0001-shell\.txt:1: token: stored-by-us$/m);
  assert.match(out.text, /1 file has other names \(a hard link\) and was not searched.*0002-shell\.txt/);
  const named = await grep.run({ pattern: 'token', path: '.context-desk/tool-outputs/s1/0002-shell.txt' }, ctx);
  assert.equal(named.ok, false);
  assert.doesNotMatch(named.text, /PRIVATE-KEY-BYTES/);
  assert.match(named.text, /has 2 names \(a hard link\)/);
});

test('context-desk grep leaves a hard-linked file out of plain and JSON output and names it on stderr', async (t) => {
  const { ws } = await linkedStore(t);
  for (const args of [
    ['grep', 'token'],
    ['grep', 'token', '--max', '10'],
    ['grep', '--json', 'token'],
  ]) {
    const r = await runCli(args, { cwd: ws });
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.out, /PRIVATE-KEY-BYTES/, args.join(' '));
    assert.match(r.out, /stored-by-us/);
    assert.match(r.err, /other names \(a hard link\).*tool-outputs\/s1\/0002-shell\.txt/);
  }
});

test("rg writing straight to the output is not used while a file has other names (its bytes can't be taken back)", async (t) => {
  const { ws, store } = await linkedStore(t);
  const file = path.join(ws, 'out.txt');
  const fh = await fsp.open(file, 'w');
  try {
    const direct = await grepStoreToFd({ root: store.root, pattern: 'token', cwd: ws, fd: fh.fd });
    assert.equal(direct, undefined);
  } finally {
    await fh.close();
  }
  assert.equal(await fsp.readFile(file, 'utf8'), '');
});

test('the stored-output grep tool names a hard-linked file it left out', async (t) => {
  const { store } = await linkedStore(t);
  const text = await grepText(store, { pattern: 'token' }, new AbortController().signal, {});
  assert.doesNotMatch(text, /PRIVATE-KEY-BYTES/);
  assert.match(text, /stored-by-us/);
  assert.match(text, /1 file has other names \(a hard link\).*tool-outputs\/s1\/0002-shell\.txt/);
});
