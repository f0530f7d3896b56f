import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore, STORE_FOLDERS } from '../../../src/core/store/context-store';
import { StoreReferenceError, StoreWriteError } from '../../../src/core/store/errors';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { HistoryWriter } from '../../../src/core/store/history';
import { safeName } from '../../../src/core/store/names';
import { tempDir } from './helpers';

async function setup(t: Parameters<typeof tempDir>[0]): Promise<{ ws: string; store: ContextStore }> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  return { ws, store };
}

test('open creates the layout and a .gitignore with *', async (t) => {
  const { ws, store } = await setup(t);
  assert.equal(await fsp.readFile(path.join(ws, '.context-desk', '.gitignore'), 'utf8'), '*\n');
  for (const f of STORE_FOLDERS) assert.ok((await fsp.stat(store.folder(f))).isDirectory(), f);
  // Opening again (a second window) keeps an edited .gitignore.
  await fsp.writeFile(path.join(store.root, '.gitignore'), '*\n# mine\n');
  await ContextStore.open({ root: store.root });
  assert.equal(await fsp.readFile(path.join(store.root, '.gitignore'), 'utf8'), '*\n# mine\n');
});

test('paths follow the documented layout with safe names', async (t) => {
  const { store } = await setup(t);
  assert.equal(
    path.relative(store.root, store.toolOutputPath('s1', 7, 'run_shell')),
    path.join('tool-outputs', 's1', '0007-run_shell.txt'),
  );
  assert.equal(path.relative(store.root, store.terminalLogPath('bash', 3)), path.join('terminals', 'bash-3.log'));
  const h = store.historyPaths('s1');
  assert.equal(path.relative(store.root, h.jsonl), path.join('history', 's1.jsonl'));
  assert.equal(path.relative(store.root, h.markdown), path.join('history', 's1.md'));
  const odd = store.terminalLogPath('../evil/ name:*?', 'a/b');
  assert.equal(path.dirname(odd), store.folder('terminals'));
});

test('a terminal named after the command it runs: its log file name keeps no secret of it', async (t) => {
  const { store } = await setup(t);
  const password = 'S3cretPassw0rd';
  const token = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
  for (const name of [
    `mysql -uroot -p${password}`,
    `psql postgres://app:${password}@db/app`,
    `export GITHUB_TOKEN=${token}`,
  ]) {
    const w = await TerminalLogWriter.open(store, { terminalName: name, terminalId: 1 });
    await w.close();
  }
  const names = await fsp.readdir(store.folder('terminals'));
  assert.equal(names.filter((n) => n.endsWith('.log')).length, 3, names.join(' '));
  for (const n of names) assert.ok(!n.includes(password) && !n.includes(token.slice(4, 16)), n);
  assert.ok(
    names.some((n) => n.startsWith('mysql_-uroot_-p_REDACTED_')),
    names.join(' '),
  );
});

test('safeName yields one safe segment and keeps different labels apart', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.string({ maxLength: 40 }), (a, b) => {
      const sa = safeName(a);
      assert.match(sa, /^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
      // Only a Windows device name (`con`, `nul.txt`) gets the leading `_` that keeps it a file.
      if (sa.startsWith('_')) assert.match(sa, /^_(?:con|prn|aux|nul|com\d|lpt\d)(?:[.-]|$)/i);
      assert.ok(sa.length <= 64);
      assert.ok(!/[. ]$/.test(sa));
      assert.equal(safeName(a), sa);
      if (a !== b) assert.notEqual(sa, safeName(b));
    }),
  );
  assert.equal(safeName('bash'), 'bash');
  assert.match(safeName('CON'), /^_CON-/);
  assert.match(safeName('nul.txt'), /^_nul/);
});

test('resolveReference accepts workspace-relative, store-relative and absolute paths inside the store', async (t) => {
  const { ws, store } = await setup(t);
  const file = store.terminalLogPath('bash', 1);
  await fsp.writeFile(file, 'hello\n');
  for (const ref of [
    '.context-desk/terminals/bash-1.log',
    'terminals/bash-1.log',
    './terminals//bash-1.log',
    file,
    'terminals\\bash-1.log',
  ]) {
    const r = await store.resolveReference(ref);
    assert.equal(r.absolute, await fsp.realpath(file), ref);
    assert.equal(r.storeRelative, 'terminals/bash-1.log');
    assert.equal(r.display, '.context-desk/terminals/bash-1.log');
  }
  assert.equal(store.displayPath(file), path.relative(ws, file).split(path.sep).join('/'));
});

async function refused(store: ContextStore, ref: string, problem: string): Promise<void> {
  await assert.rejects(store.resolveReference(ref), (e: unknown) => {
    assert.ok(e instanceof StoreReferenceError, String(e));
    assert.equal(e.problem, problem, `${ref}: ${e.message}`);
    assert.ok(e.message.includes(ref) || ref.trim() === '', e.message);
    return true;
  });
}

test('resolveReference refuses traversal, outside paths, escaping symlinks, missing files and folders', async (t) => {
  const { ws, store } = await setup(t);
  await fsp.writeFile(path.join(ws, 'secret.txt'), 'top secret\n');
  await fsp.writeFile(store.terminalLogPath('bash', 1), 'ok\n');
  await refused(store, '../secret.txt', 'traversal');
  await refused(store, 'terminals/../../secret.txt', 'traversal');
  await refused(store, '.context-desk/../secret.txt', 'traversal');
  await refused(store, 'terminals\\..\\..\\secret.txt', 'traversal');
  await refused(store, path.join(ws, 'secret.txt'), 'outside');
  await refused(store, '/etc/passwd', 'outside');
  await refused(store, '', 'empty');
  await refused(store, 'terminals/x\0.log', 'invalid');
  await refused(store, 'terminals/none.log', 'not-found');
  await refused(store, 'terminals', 'not-a-file');
  await fsp.symlink(path.join(ws, 'secret.txt'), path.join(store.folder('terminals'), 'link.log'));
  await refused(store, 'terminals/link.log', 'symlink-escape');
  await fsp.symlink(ws, path.join(store.folder('history'), 'dirlink'));
  await refused(store, 'history/dirlink/secret.txt', 'symlink-escape');
  // A symlink that stays inside the store is fine.
  await fsp.symlink(store.terminalLogPath('bash', 1), path.join(store.folder('history'), 'inside.log'));
  assert.equal((await store.resolveReference('history/inside.log')).storeRelative, 'terminals/bash-1.log');
});

test('enforceCaps deletes the oldest files first and never one another store instance has open', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, 'store'), caps: { 'tool-outputs': 2500 } });
  const files: string[] = [];
  for (let i = 0; i < 5; i++) {
    const f = store.toolOutputPath(`s${i % 2}`, i, 'tool');
    await fsp.mkdir(path.dirname(f), { recursive: true });
    await fsp.writeFile(f, 'x'.repeat(1000));
    const when = new Date(Date.now() - (10 - i) * 60_000);
    await fsp.utimes(f, when, when);
    files.push(f);
  }
  // A second instance (e.g. the terminal capture) has the oldest file open for appending.
  const other = await ContextStore.open({ root: store.root });
  const open = await other.writer.openAppend(files[0]!);
  const r = (await store.enforceCaps('tool-outputs'))['tool-outputs']!;
  assert.equal(r.bytesBefore, 5000);
  assert.deepEqual(r.deleted, [files[1], files[2], files[3]]);
  assert.equal(r.bytesAfter, 2000);
  for (const f of [files[0]!, files[4]!]) await fsp.access(f);
  await open.close();
  const again = (await store.enforceCaps('tool-outputs'))['tool-outputs']!;
  assert.deepEqual(again.deleted, []);
});

test('a store that cannot be created or written fails with a clear error and changes nothing', async (t) => {
  const ws = await tempDir(t);
  const blocker = path.join(ws, 'not-a-folder');
  await fsp.writeFile(blocker, 'keep me\n');
  await assert.rejects(ContextStore.open({ root: blocker }), (e: unknown) => {
    assert.ok(e instanceof StoreWriteError);
    assert.match(e.message, /will not use .*not-a-folder as its folder: it is a file/);
    return true;
  });
  assert.equal(await fsp.readFile(blocker, 'utf8'), 'keep me\n');
  // A folder of the store replaced by a file: writers say which file they could not open.
  const store = await ContextStore.open({ root: path.join(ws, 'store') });
  await fsp.rm(store.folder('history'), { recursive: true });
  await fsp.writeFile(store.folder('history'), 'oops\n');
  await assert.rejects(
    HistoryWriter.open(store, 's'),
    (e: unknown) =>
      e instanceof StoreWriteError && /Could not append .*history.*s\.jsonl: .*history is not a folder/.test(e.message),
  );
  await fsp.rm(store.folder('terminals'), { recursive: true });
  await fsp.writeFile(store.folder('terminals'), 'oops\n');
  await assert.rejects(TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1 }), StoreWriteError);
  assert.equal(await fsp.readFile(store.folder('terminals'), 'utf8'), 'oops\n');
});
