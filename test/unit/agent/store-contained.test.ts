// A command whose target holds the store (the workspace root, a folder above it) deletes or overwrites
// the store with everything else: `git clean -fdx`, `rm -rf .`, `find . -delete`, `rsync --delete` into
// the root. Its approval says so, though the line never names the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { storeWriteWarning } from '../../../src/core/agent/tools/store-writes';

const ws = path.resolve('/w/project');
const store = path.join(ws, '.context-desk');
const src = path.join(ws, 'src');

test('a line deleting or overwriting a folder that holds the store says so', () => {
  for (const [line, cwd] of <[string, string][]>[
    ['git clean -fdx', ws],
    ['git clean -xdf', ws],
    ['git clean -fd', ws],
    ['git -C .. clean -fdx', src],
    ['git clean -fdx :/', src],
    [`git -C ${ws} clean -fdx`, '/tmp'],
    ['git stash --all', src],
    ['rm -rf .', ws],
    ['rm -rf ./', ws],
    ['rm -r ..', src],
    [`rm -rf ${ws}`, '/tmp'],
    ['rm -rf .* *', ws],
    ['shopt -s dotglob; rm -rf *', ws],
    ['rm -fr ../.[!.]*', src],
    ['find . -delete', ws],
    ['find -name "*.jsonl" -delete', ws],
    ['find .. -type f -exec rm {} +', src],
    ['rsync -a --delete /tmp/x/ .', ws],
    ['rsync -a --delete-after ../other/ ../', src],
    ['cd .. && rm -rf .', src],
  ])
    assert.match(
      storeWriteWarning(line, cwd, store) ?? '',
      /deletes or overwrites .* which holds the Context Desk folder/,
      `${line} (in ${cwd})`,
    );
  for (const [line, cwd] of <[string, string][]>[
    ['git clean -f', ws],
    ['git clean -fdx', src],
    ['git clean -n -d', src],
    ['rm -rf *', ws],
    ['rm -rf build dist', ws],
    ['rm -f .', ws],
    ['find . -name "*.o"', ws],
    ['find src -delete', ws],
    ['rsync -a /tmp/x/ .', ws],
    ['rsync -a --delete x/ out/', ws],
    ['git stash', ws],
    ['rm -rf .git', ws],
  ])
    assert.equal(storeWriteWarning(line, cwd, store), undefined, `${line} (in ${cwd})`);
});

test('a copy of a folder named as the store into the folder holding it writes into the store', () => {
  for (const line of ['cp -r vendor/.context-desk .', 'mv payload/.context-desk ./', 'rsync -a x/.context-desk .'])
    assert.match(storeWriteWarning(line, ws, store) ?? '', /writes into the Context Desk folder/, line);
  assert.equal(storeWriteWarning('cp -r vendor/lib .', ws, store), undefined);
});

test('a copy of the contents of a folder holding one named as the store, into the root, is named', async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-contained-')));
  try {
    await mkdir(path.join(root, 'payload', '.context-desk', 'history'), { recursive: true });
    await mkdir(path.join(root, 'clean'), { recursive: true });
    const st = path.join(root, '.context-desk');
    for (const line of ['cp -a payload/. .', 'rsync -a payload/ ./', 'cp -r payload/. ./'])
      assert.match(storeWriteWarning(line, root, st) ?? '', /writes into the Context Desk folder/, line);
    for (const line of ['cp -a clean/. .', 'rsync -a clean/ ./', 'cp -a payload/. out'])
      assert.equal(storeWriteWarning(line, root, st), undefined, line);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('find (or ls) feeding a writer through xargs, from a folder that holds the store, is named', () => {
  for (const [line, cwd] of <[string, string][]>[
    ['find . -name "*.log" | xargs rm', ws],
    ['find . -type f -print0 | xargs -0 rm -f', ws],
    ['find .. -mtime +1 | xargs -I {} rm {}', src],
    ['ls -A | xargs rm -rf', ws],
  ])
    assert.match(
      storeWriteWarning(line, cwd, store) ?? '',
      /feeds rm through xargs from .* which holds the Context Desk folder/,
      line,
    );
  for (const [line, cwd] of <[string, string][]>[
    ['find . -name "*.log" | xargs rm', src],
    ['find src -name "*.o" | xargs rm', ws],
    ['find . -name "*.ts" | xargs wc -l', ws],
    ['ls | xargs echo', ws],
  ])
    assert.equal(storeWriteWarning(line, cwd, store), undefined, line);
});
