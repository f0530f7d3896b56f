// A command the user approved can make any file of theirs a name under the store (`ln ~/.ssh/id_rsa
// .context-desk/tool-outputs/s1/x.txt`). Readers of the store refuse such a file, so its text never
// reaches the model as if Context Desk had stored it; a workspace file with other names is still read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { listSessions, loadSession, transcriptFile } from '../../../src/core/store/history';
import { grepText, readStored } from '../../../src/core/agent/tools/store-answers';
import { PathGuard, readFileTool, tailTool } from '../../../src/core/agent/tools';
import type { ToolContext } from '../../../src/core/agent/tool-registry';
import { tempDir } from './helpers';

const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };
const SECRET = '-----BEGIN OPENSSH PRIVATE KEY----- not really';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const base = await tempDir(t);
  const ws = path.join(base, 'ws');
  await fsp.mkdir(ws);
  const key = path.join(base, 'id_rsa');
  await fsp.writeFile(key, `${SECRET}\n`);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const outputs = path.join(store.root, 'tool-outputs', 's1');
  await fsp.mkdir(outputs, { recursive: true });
  await fsp.link(key, path.join(outputs, 'x.txt'));
  await fsp.writeFile(path.join(outputs, 'plain.txt'), 'stored output\n');
  return { base, ws, key, store };
}

test('the store reader tool and read_file/tail refuse a stored file with another name', async (t) => {
  const { ws, key, store } = await fixture(t);
  const stored = await readStored(store, { path: 'tool-outputs/s1/x.txt' });
  assert.doesNotMatch(stored, /PRIVATE KEY/);
  assert.match(stored, /has 2 names \(a hard link\)/);
  assert.match(await readStored(store, { path: 'tool-outputs/s1/plain.txt' }), /stored output/);

  const guard = new PathGuard({ workspaceRoot: ws, storeRoot: store.root });
  for (const tool of [readFileTool(guard), tailTool(guard)]) {
    const out = await tool.run({ path: '.context-desk/tool-outputs/s1/x.txt' }, ctx);
    assert.equal(out.ok, false, tool.name);
    assert.doesNotMatch(out.text, /PRIVATE KEY/, tool.name);
    assert.match(out.text, /a hard link/, tool.name);
    assert.equal((await tool.run({ path: '.context-desk/tool-outputs/s1/plain.txt' }, ctx)).ok, true, tool.name);
  }
  // In the workspace, a file with other names is read as before (pnpm hard-links node_modules).
  await fsp.link(key, path.join(ws, 'linked.txt'));
  assert.match((await readFileTool(guard).run({ path: 'linked.txt' }, ctx)).text, /PRIVATE KEY/);
});

test('a history file with another name is not listed, resumed or opened as a transcript', async (t) => {
  const { base, store } = await fixture(t);
  const history = store.folder('history');
  await fsp.mkdir(history, { recursive: true });
  const line = JSON.stringify({ index: 0, message: { role: 'user', content: 'rm -rf ~ please' } });
  await fsp.writeFile(path.join(base, 'elsewhere.jsonl'), `${line}\n`);
  await fsp.link(path.join(base, 'elsewhere.jsonl'), path.join(history, 'planted.jsonl'));
  await fsp.writeFile(path.join(base, 'notes.md'), '# notes\n');
  await fsp.link(path.join(base, 'notes.md'), path.join(history, 'planted.md'));
  await fsp.writeFile(path.join(history, 'own.jsonl'), `${line}\n`);

  assert.deepEqual(
    (await listSessions(store)).map((s) => s.name),
    ['own'],
  );
  await assert.rejects(loadSession(store, 'planted'), /has 2 names \(a hard link\)/);
  assert.equal((await loadSession(store, 'own')).records.length, 1);
  await assert.rejects(transcriptFile(store, 'planted'), /has 2 names \(a hard link\)/);
});

test('a store grep leaves out the lines of a file with another name', async (t) => {
  const { store } = await fixture(t);
  await fsp.writeFile(path.join(store.root, 'tool-outputs', 's1', 'plain.txt'), 'OPENSSH mentioned here\n');
  const found = await grepText(store, { pattern: 'OPENSSH' }, new AbortController().signal, {
    candidates: ['/usr/bin/rg'],
  });
  assert.match(found, /plain\.txt:1: OPENSSH mentioned here/);
  assert.doesNotMatch(found, /PRIVATE KEY/);
});
