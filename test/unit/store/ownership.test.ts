// The store owns its folder: refusals, the marker, adoption of the previous layout, rotation only of
// the store's own files and never of a file another instance or process has open, crash leftovers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { StoreFolderError } from '../../../src/core/store/errors';
import { STORE_MARKER } from '../../../src/core/store/ownership';
import { isAlive, LOCK_STALE_MS, LOCKS_DIR, readLocks } from '../../../src/core/store/owners';
import { exited, startChild, tempDir } from './helpers';

async function refusedWith(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof StoreFolderError, String(e));
    assert.match(e.message, pattern);
    return true;
  });
}

test('the workspace root, an ancestor ("", ".", "..") and an outside folder are refused; nothing is written', async (t) => {
  const base = await tempDir(t);
  const ws = path.join(base, 'ws');
  await fsp.mkdir(ws);
  for (const rel of ['', '.', '..', '../..'])
    await refusedWith(
      ContextStore.open({ root: path.resolve(ws, rel), workspaceRoot: ws, source: 'contextDesk.storeFolder' }),
      /is the workspace folder or contains it.*Set contextDesk\.storeFolder/,
    );
  await refusedWith(
    ContextStore.open({ root: path.join(base, 'elsewhere'), workspaceRoot: ws, source: 'contextDesk.storeFolder' }),
    /outside the workspace.*user settings/,
  );
  assert.deepEqual(await fsp.readdir(ws), [], 'no .gitignore, no marker in the workspace');
  // A store folder not made yet under a linked parent would land outside: refused, nothing created.
  await fsp.mkdir(path.join(base, 'away'));
  await fsp.symlink(path.join(base, 'away'), path.join(ws, 'sub'));
  await refusedWith(
    ContextStore.open({ root: path.join(ws, 'sub', '.cd'), workspaceRoot: ws }),
    /outside the workspace/,
  );
  assert.deepEqual(await fsp.readdir(path.join(base, 'away')), []);
  await fsp.unlink(path.join(ws, 'sub'));
  assert.deepEqual((await fsp.readdir(base)).sort(), ['away', 'ws']);
  // From the user's own settings, outside is fine.
  const store = await ContextStore.open({
    root: path.join(base, 'elsewhere'),
    workspaceRoot: ws,
    allowOutsideWorkspace: true,
  });
  assert.ok(await fsp.stat(path.join(store.root, STORE_MARKER)));
});

test('an existing folder that is not a store is refused; an empty one and a previous-version store are taken', async (t) => {
  const ws = await tempDir(t);
  const mine = path.join(ws, 'docs');
  await fsp.mkdir(path.join(mine, 'history'), { recursive: true });
  await fsp.writeFile(path.join(mine, 'README.md'), 'mine\n');
  await refusedWith(
    ContextStore.open({ root: mine, workspaceRoot: ws }),
    /not a Context Desk store.*Move or delete it/,
  );
  assert.deepEqual((await fsp.readdir(mine)).sort(), ['README.md', 'history']);

  const empty = path.join(ws, 'empty');
  await fsp.mkdir(empty);
  await ContextStore.open({ root: empty, workspaceRoot: ws });
  assert.ok(await fsp.stat(path.join(empty, STORE_MARKER)));

  const old = path.join(ws, '.context-desk');
  await fsp.mkdir(path.join(old, 'history'), { recursive: true });
  await fsp.writeFile(path.join(old, '.gitignore'), '*\n');
  await fsp.writeFile(path.join(old, 'history', 's.jsonl'), '{}\n');
  await ContextStore.open({ root: old, workspaceRoot: ws });
  assert.ok(await fsp.stat(path.join(old, STORE_MARKER)), 'adopted: the marker was added');
  assert.equal(await fsp.readFile(path.join(old, 'history', 's.jsonl'), 'utf8'), '{}\n');

  // A previous-version layout with a linked sub-folder, or a foreign file, is not adopted.
  const linked = path.join(ws, 'linked');
  await fsp.mkdir(linked);
  await fsp.writeFile(path.join(linked, '.gitignore'), '*\n');
  await fsp.symlink(ws, path.join(linked, 'history'));
  await refusedWith(ContextStore.open({ root: linked, workspaceRoot: ws }), /"history" is not a real folder/);
  const linkRoot = path.join(ws, 'link-root');
  await fsp.symlink(path.join(ws, 'empty'), linkRoot);
  await refusedWith(ContextStore.open({ root: linkRoot, workspaceRoot: ws }), /symbolic link/);
});

test('rotation deletes only files of the store layouts; links and foreign files are neither counted nor touched', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({
    root: path.join(ws, '.context-desk'),
    workspaceRoot: ws,
    caps: { terminals: 1000 },
  });
  const old = new Date(Date.now() - 3600_000);
  const foreign = path.join(store.folder('terminals'), 'notes.txt');
  await fsp.writeFile(foreign, 'f'.repeat(5000));
  await fsp.utimes(foreign, old, old);
  await fsp.writeFile(path.join(ws, 'victim.log'), 'v'.repeat(5000));
  await fsp.symlink(path.join(ws, 'victim.log'), path.join(store.folder('terminals'), 'evil-1.log'));
  const logs = [0, 1, 2].map((i) => store.terminalLogPath('bash', i));
  for (const [i, f] of logs.entries()) {
    await fsp.writeFile(f, 'x'.repeat(600));
    const when = new Date(Date.now() - (10 - i) * 60_000);
    await fsp.utimes(f, when, when);
  }
  const r = (await store.enforceCaps('terminals')).terminals!;
  assert.equal(r.bytesBefore, 1800, 'only the three logs count');
  assert.deepEqual(r.deleted, [logs[0], logs[1]]);
  assert.ok(await fsp.stat(foreign));
  assert.equal((await fsp.readFile(path.join(ws, 'victim.log'), 'utf8')).length, 5000);
});

test('a file another process has open is never rotated; once that process is gone, it is', async (t) => {
  const ws = await tempDir(t);
  const root = path.join(ws, '.context-desk');
  const store = await ContextStore.open({ root, workspaceRoot: ws, caps: { history: 100 } });
  const held = store.historyPaths('held').jsonl;
  const free = store.historyPaths('free').jsonl;
  await fsp.writeFile(held, 'h'.repeat(500));
  await fsp.writeFile(free, 'f'.repeat(500));
  const older = new Date(Date.now() - 600_000);
  await fsp.utimes(held, older, older);
  const child = await startChild('holder.ts', [root, held]);
  try {
    const r = (await store.enforceCaps('history')).history!;
    assert.deepEqual(r.deleted, [free], 'the held file stays, though it is the oldest');
    assert.ok(await fsp.stat(held));
  } finally {
    child.kill('SIGKILL');
    await exited(child);
  }
  // The holder died without releasing: its lock record is stale and no longer protects the file.
  assert.deepEqual((await store.enforceCaps('history')).history!.deleted, [held]);
});

test('a record that cannot be checked (another host, no start time) pins its file only while refreshed', async (t) => {
  // A cloned repository can ship `.locks/` records; a writer on another host can crash. Neither may keep
  // a file from rotation for ever (which made rotation delete every other file instead).
  const ws = await tempDir(t);
  const root = path.join(ws, '.context-desk');
  const store = await ContextStore.open({ root, workspaceRoot: ws, caps: { history: 100 } });
  const pinned = ['far', 'pid1'].map((id) => store.historyPaths(id).jsonl);
  const mine = store.historyPaths('mine').jsonl;
  const older = new Date(Date.now() - 600_000);
  for (const f of [...pinned, mine]) {
    await fsp.writeFile(f, 'x'.repeat(500));
    await fsp.utimes(f, older, older);
  }
  const records = [
    { v: 1, pid: 4242, start: '77', host: 'elsewhere.example', file: 'history/far.jsonl' },
    { v: 1, pid: 1, start: '0', host: hostname(), file: 'history/pid1.jsonl' },
  ];
  const lockFiles = records.map((_, i) => path.join(root, LOCKS_DIR, `shipped-${i}.lock`));
  for (const [i, r] of records.entries()) await fsp.writeFile(lockFiles[i]!, JSON.stringify(r) + '\n');
  // Fresh: both count as alive, and the unpinned file is what goes.
  assert.deepEqual((await store.enforceCaps('history')).history!.deleted, [mine]);
  // Not refreshed for longer than LOCK_STALE_MS: no longer a writer; the files rotate and cleanup takes the records.
  const stale = new Date(Date.now() - LOCK_STALE_MS - 60_000);
  for (const f of lockFiles) await fsp.utimes(f, stale, stale);
  assert.deepEqual((await store.enforceCaps('history')).history!.deleted.sort(), [...pinned].sort());
  const { cleanLeftovers } = await import('../../../src/core/store/rotation');
  assert.deepEqual((await cleanLeftovers(store.writer, [])).sort(), [...lockFiles].sort());
});

test("a writer refreshes its own lock records, so another host sees them as alive while they're held", async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const file = store.historyPaths('s').jsonl;
  const handle = await store.writer.openAppend(file);
  const [lock] = await readLocks(store.root);
  const lockPath = path.join(store.root, LOCKS_DIR, lock!.name);
  const stale = new Date(Date.now() - LOCK_STALE_MS - 60_000);
  await fsp.utimes(lockPath, stale, stale);
  await store.writer.refreshLocks();
  const [after] = await readLocks(store.root);
  assert.ok(after!.ageMs! < LOCK_STALE_MS, `refreshed (${after!.ageMs} ms old)`);
  assert.ok(isAlive({ ...after!.record!, host: 'other-host' }, after!.ageMs), 'alive as another host sees it');
  await handle.close();
  assert.deepEqual(await readLocks(store.root), [], 'released with the file');
});

test('crash leftovers whose writer is gone are cleaned on open and never count toward the caps', async (t) => {
  const ws = await tempDir(t);
  const root = path.join(ws, 'store-leftovers');
  const first = await ContextStore.open({ root, workspaceRoot: ws, caps: { 'tool-outputs': 100 } });
  const dir = path.join(first.folder('tool-outputs'), 's1');
  await fsp.mkdir(dir);
  const partial = path.join(dir, '0001-run.txt.partial');
  const tmp = path.join(dir, '.index.json.999999.0.abcdef12.tmp');
  const oldTmp = path.join(dir, '.index.json.999998.abcdef12.tmp');
  for (const f of [partial, tmp, oldTmp]) await fsp.writeFile(f, 'p'.repeat(1000));
  const stale = new Date(Date.now() - 3600_000);
  for (const f of [tmp, oldTmp]) await fsp.utimes(f, stale, stale);
  assert.equal((await first.enforceCaps('tool-outputs'))['tool-outputs']!.bytesBefore, 0, 'leftovers do not count');
  // A live stream of this process is not a leftover.
  const live = await first.writer.createStream(path.join(dir, '0002-run.txt.partial'));
  const { cleanLeftovers } = await import('../../../src/core/store/rotation');
  const deleted = await cleanLeftovers(first.writer, ['tool-outputs']);
  assert.deepEqual(deleted.sort(), [oldTmp, partial, tmp].sort());
  assert.deepEqual(await fsp.readdir(dir), ['0002-run.txt.partial']);
  await live.discard();
  assert.deepEqual(await fsp.readdir(dir), []);
});
