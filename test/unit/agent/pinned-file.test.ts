import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { createPinned, openPinnedExisting, rewritePinned } from '../../../src/core/agent/tools/pinned-file';

/** A workspace folder and an outside folder, real paths (the guard hands over real paths). */
function dirs(): { ws: string; out: string } {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pinned-')));
  fs.mkdirSync(path.join(top, 'ws', 'sub'), { recursive: true });
  fs.mkdirSync(path.join(top, 'out', 'sub'), { recursive: true });
  return { ws: path.join(top, 'ws'), out: path.join(top, 'out') };
}

async function rewrite(file: string, text: string, hook?: () => void): Promise<string | true> {
  const pinned = await openPinnedExisting(file, 'x.txt', hook);
  if (!pinned.ok) return pinned.why;
  try {
    return (await rewritePinned(pinned.handle, Buffer.from(text))) || 'not written';
  } finally {
    await pinned.handle.close();
  }
}

test('the checked file is rewritten in place: same file, its mode kept, shorter text truncates', async () => {
  const { ws } = dirs();
  const file = path.join(ws, 'x.txt');
  fs.writeFileSync(file, 'a long first text\n');
  fs.chmodSync(file, 0o640);
  const ino = fs.statSync(file).ino;
  assert.equal(await rewrite(file, 'short\n'), true);
  assert.equal(fs.readFileSync(file, 'utf8'), 'short\n');
  assert.equal(fs.statSync(file).ino, ino);
  assert.equal(fs.statSync(file).mode & 0o777, 0o640);
});

test('a symbolic link swapped in for the file is not written through', async () => {
  const { ws, out } = dirs();
  const file = path.join(ws, 'x.txt');
  fs.writeFileSync(path.join(out, 'secret'), 'outside\n');
  fs.symlinkSync(path.join(out, 'secret'), file);
  assert.match(
    String(await rewrite(file, 'pwned\n')),
    /x\.txt changed just before writing \(it is a symbolic link now\)/,
  );
  assert.equal(fs.readFileSync(path.join(out, 'secret'), 'utf8'), 'outside\n');
});

test('a hard link swapped in for the file, or made while it is open, is not written through', async () => {
  const { ws, out } = dirs();
  const file = path.join(ws, 'x.txt');
  fs.writeFileSync(path.join(out, 'secret'), 'outside\n');
  fs.linkSync(path.join(out, 'secret'), file);
  assert.match(String(await rewrite(file, 'pwned\n')), /other names now \(a hard link\)/);
  assert.equal(fs.readFileSync(path.join(out, 'secret'), 'utf8'), 'outside\n');

  const own = path.join(ws, 'own.txt');
  fs.writeFileSync(own, 'mine\n');
  const refused = await rewrite(own, 'pwned\n', () => fs.linkSync(own, path.join(out, 'linked')));
  assert.match(String(refused), /a hard link/);
  assert.equal(fs.readFileSync(own, 'utf8'), 'mine\n');
});

test('a folder on the way swapped for a link, or the file moved out while open, is refused', async () => {
  const { ws, out } = dirs();
  fs.writeFileSync(path.join(out, 'sub', 'x.txt'), 'outside\n');
  fs.rmSync(path.join(ws, 'sub'), { recursive: true });
  fs.symlinkSync(path.join(out, 'sub'), path.join(ws, 'sub'));
  assert.match(String(await rewrite(path.join(ws, 'sub', 'x.txt'), 'pwned\n')), /another folder now|another file now/);
  assert.equal(fs.readFileSync(path.join(out, 'sub', 'x.txt'), 'utf8'), 'outside\n');

  const file = path.join(ws, 'x.txt');
  fs.writeFileSync(file, 'mine\n');
  const moved = path.join(out, 'moved');
  assert.match(String(await rewrite(file, 'pwned\n', () => fs.renameSync(file, moved))), /changed just before writing/);
  assert.equal(fs.readFileSync(moved, 'utf8'), 'mine\n');
});

test('a FIFO swapped in does not hang the open and is refused', async () => {
  const { ws } = dirs();
  const file = path.join(ws, 'x.txt');
  const made = spawnSync('mkfifo', [file]);
  if (made.status !== 0) return assert.fail('mkfifo is needed for this test');
  assert.match(String(await rewrite(file, 'x')), /not a regular file|could not be opened/);
});

test('what the file holds is checked before writing: a refusal writes nothing', async () => {
  const { ws } = dirs();
  const file = path.join(ws, 'x.txt');
  fs.writeFileSync(file, 'changed on disk\n');
  const pinned = await openPinnedExisting(file, 'x.txt');
  assert.ok(pinned.ok);
  const seen: string[] = [];
  const written = await rewritePinned(pinned.handle, Buffer.from('new\n'), (held) => {
    seen.push(Buffer.from(held).toString());
    return false;
  });
  await pinned.handle.close();
  assert.equal(written, false);
  assert.deepEqual(seen, ['changed on disk\n']);
  assert.equal(fs.readFileSync(file, 'utf8'), 'changed on disk\n');
});

test('a new file is created with its missing folders, never through a link or over a file that appeared', async () => {
  const { ws, out } = dirs();
  const deep = path.join(ws, 'a', 'b', 'new.txt');
  const made = await createPinned(deep, 'a/b/new.txt');
  assert.ok(made.ok);
  await rewritePinned(made.handle, Buffer.from('hi\n'));
  await made.handle.close();
  assert.equal(fs.readFileSync(deep, 'utf8'), 'hi\n');

  // A dangling link at the name: creating through it would make a file outside.
  const dangling = path.join(ws, 'dangling.txt');
  fs.symlinkSync(path.join(out, 'autostart.desktop'), dangling);
  const refused = await createPinned(dangling, 'dangling.txt');
  assert.ok(!refused.ok);
  assert.match(refused.why, /something exists at that name now/);
  assert.equal(fs.existsSync(path.join(out, 'autostart.desktop')), false);

  // Its folder swapped for a link to a folder outside.
  fs.symlinkSync(path.join(out, 'sub'), path.join(ws, 'swapped'));
  const through = await createPinned(path.join(ws, 'swapped', 'f.txt'), 'swapped/f.txt');
  assert.ok(!through.ok);
  assert.deepEqual(fs.readdirSync(path.join(out, 'sub')), []);
});

test('a folder moved out while the new file is made is refused', async () => {
  const { ws, out } = dirs();
  const file = path.join(ws, 'sub', 'new.txt');
  const made = await createPinned(file, 'sub/new.txt', () =>
    fs.renameSync(path.join(ws, 'sub'), path.join(out, 'gone')),
  );
  assert.ok(!made.ok);
  assert.match(made.why, /changed just before writing/);
});
