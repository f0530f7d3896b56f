// edit_file's pinned write as on systems without /proc (macOS, Windows): the lookup turned off, the
// opened file and folders are compared with the path (device, inode, no link on the way); a swap is
// refused, never written through.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { createPinned, openPinnedExisting, rewritePinned } from '../../../src/core/agent/tools/pinned-file';

const NO_PROC = { proc: false };

function dirs(): { ws: string; out: string } {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pinned-noproc-')));
  fs.mkdirSync(path.join(top, 'ws', 'sub'), { recursive: true });
  fs.mkdirSync(path.join(top, 'out', 'sub'), { recursive: true });
  return { ws: path.join(top, 'ws'), out: path.join(top, 'out') };
}

async function rewrite(file: string, text: string, hook?: () => void): Promise<string | true> {
  const pinned = await openPinnedExisting(file, 'x.txt', hook, NO_PROC);
  if (!pinned.ok) return pinned.why;
  try {
    return (await rewritePinned(pinned.handle, Buffer.from(text))) || 'not written';
  } finally {
    await pinned.handle.close();
  }
}

test('without /proc: the checked file is rewritten in place', async () => {
  const { ws } = dirs();
  const file = path.join(ws, 'sub', 'x.txt');
  fs.writeFileSync(file, 'a long first text\n');
  const ino = fs.statSync(file).ino;
  assert.equal(await rewrite(file, 'short\n'), true);
  assert.equal(fs.readFileSync(file, 'utf8'), 'short\n');
  assert.equal(fs.statSync(file).ino, ino);
});

test('without /proc: a link at the file or on the way, or a folder swapped while open, is not written through', async () => {
  const { ws, out } = dirs();
  fs.writeFileSync(path.join(out, 'sub', 'x.txt'), 'outside\n');
  fs.symlinkSync(path.join(out, 'sub', 'x.txt'), path.join(ws, 'x.txt'));
  assert.match(String(await rewrite(path.join(ws, 'x.txt'), 'pwned\n')), /symbolic link/);
  fs.symlinkSync(path.join(out, 'sub'), path.join(ws, 'via'));
  assert.match(String(await rewrite(path.join(ws, 'via', 'x.txt'), 'pwned\n')), /another file now/);

  // Opened as the workspace's file, then its folder moved out and a link left to it: same inode by path.
  const file = path.join(ws, 'sub', 'x.txt');
  fs.writeFileSync(file, 'mine\n');
  const refused = await rewrite(file, 'pwned\n', () => {
    fs.renameSync(path.join(ws, 'sub'), path.join(out, 'moved'));
    fs.symlinkSync(path.join(out, 'moved'), path.join(ws, 'sub'));
  });
  assert.match(String(refused), /another file now/);
  assert.equal(fs.readFileSync(path.join(out, 'moved', 'x.txt'), 'utf8'), 'mine\n');
  assert.equal(fs.readFileSync(path.join(out, 'sub', 'x.txt'), 'utf8'), 'outside\n');
});

test('without /proc: a new file is made with its missing folders, and never through a swapped folder', async () => {
  const { ws, out } = dirs();
  const deep = path.join(ws, 'a', 'b', 'new.txt');
  const made = await createPinned(deep, 'a/b/new.txt', undefined, NO_PROC);
  assert.ok(made.ok);
  await rewritePinned(made.handle, Buffer.from('hi\n'));
  await made.handle.close();
  assert.equal(fs.readFileSync(deep, 'utf8'), 'hi\n');

  fs.symlinkSync(path.join(out, 'sub'), path.join(ws, 'swapped'));
  const through = await createPinned(path.join(ws, 'swapped', 'f.txt'), 'swapped/f.txt', undefined, NO_PROC);
  assert.ok(!through.ok);
  assert.deepEqual(fs.readdirSync(path.join(out, 'sub')), []);

  const moved = await createPinned(
    path.join(ws, 'sub', 'new.txt'),
    'sub/new.txt',
    () => {
      fs.renameSync(path.join(ws, 'sub'), path.join(out, 'gone'));
      fs.symlinkSync(path.join(out, 'gone'), path.join(ws, 'sub'));
    },
    NO_PROC,
  );
  assert.ok(!moved.ok);
  assert.match(moved.why, /changed just before writing/);
});
