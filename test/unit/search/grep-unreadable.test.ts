import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../support/cli';
import { ContextStore } from '../../../src/core/store/context-store';
import { grepText } from '../../../src/core/agent/tools/store-answers';
import { grepStoreToFd } from '../../../src/core/search/store-grep';

/**
 * A store with a match in a terminal log and a file rg cannot read: one under folders nested past the
 * longest path the system opens (ENAMETOOLONG), which even root cannot read (unlike a chmod 000 file).
 */
async function storeWithUnreadable(t: { after(fn: () => void): void }): Promise<ContextStore> {
  const ws = await mkdtemp(path.join(tmpdir(), 'cd-unreadable-'));
  t.after(() => execFileSync('rm', ['-rf', ws])); // rm walks a tree too deep for a path
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  mkdirSync(path.join(store.root, 'terminals'), { recursive: true });
  writeFileSync(path.join(store.root, 'terminals', 'bash-1.log'), 'error: frobnicate failed\n');
  const outputs = path.join(store.root, 'tool-outputs');
  mkdirSync(outputs, { recursive: true });
  const back = process.cwd();
  process.chdir(outputs);
  try {
    for (let i = 0; i < 22; i++) {
      mkdirSync('d'.repeat(200));
      process.chdir('d'.repeat(200));
    }
    writeFileSync('deep.txt', 'frobnicate deep\n');
  } finally {
    process.chdir(back);
  }
  return store;
}

test('contextDesk_grepLogs keeps the matches it found when a stored file cannot be read, and names it', async (t) => {
  const store = await storeWithUnreadable(t);
  const text = await grepText(store, { pattern: 'frobnicate' }, new AbortController().signal, {});
  const [first, note] = text.split('\n');
  assert.equal(first, '.context-desk/terminals/bash-1.log:1: error: frobnicate failed');
  assert.match(
    note!,
    /^\(1 path could not be read and was not searched: \.context-desk\/tool-outputs\/d+\/.*File ?name too long/i,
  );
  const none = await grepText(store, { pattern: 'absent' }, new AbortController().signal, {});
  assert.match(none, /^No matches for "absent" in all\.\n\(1 path could not be read/);
});

test('context-desk grep prints the matches found, names what it could not read on stderr and exits 2', async (t) => {
  const store = await storeWithUnreadable(t);
  const cwd = path.dirname(store.root);
  for (const args of [[], ['--json'], ['--max', '5']]) {
    const r = await runCli(['grep', 'frobnicate', ...args], { cwd });
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.out, /terminals[/\\]bash-1\.log.*frobnicate failed/, args.join(' '));
    assert.match(
      r.err,
      /^context-desk grep: 1 path could not be read and was not searched: \.context-desk\/tool-outputs\/d+\/.*File ?name too long/i,
    );
  }
});

test('rg writing straight to a file (context-desk grep into a pipe or file) reports what it could not read', async (t) => {
  const store = await storeWithUnreadable(t);
  const cwd = path.dirname(store.root);
  const out = path.join(cwd, 'out.txt');
  const fd = openSync(out, 'w');
  let unreadable: string[] = [];
  try {
    const search = {
      root: store.root,
      pattern: 'frobnicate',
      cwd,
      fd,
      onUnreadable: (p: string[]) => (unreadable = p),
    };
    await grepStoreToFd(search);
  } finally {
    closeSync(fd);
  }
  assert.match(readFileSync(out, 'utf8'), /^\.context-desk\/terminals\/bash-1\.log:1:error: frobnicate failed\n$/);
  assert.equal(unreadable.length, 1);
  assert.match(unreadable[0]!, /File ?name too long/i);
});
