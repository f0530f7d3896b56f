// A folder of the store swapped for a link between the writer's check of it and its use: a command
// running meanwhile (`mv .context-desk/mcp/x /tmp; ln -s ~ .context-desk/mcp/x`) must not make the
// writer delete through the link. The swap is made the moment the writer's last check of the folder
// returns (node's real lstat runs; the swap follows it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StoreWriter } from '../../../src/core/store/store-writer';
import { tempDir } from './helpers';

/** Runs `swap` once, right after the first lstat of `at` (the writer's check of it) returns. */
function swapAfterCheck(t: Parameters<typeof tempDir>[0], at: string, swap: () => void): void {
  const real = fsp.lstat;
  let done = false;
  const patched = (async (p: fs.PathLike, o?: fs.StatOptions) => {
    const st = await real(p, o as fs.StatOptions & { bigint?: false });
    if (!done && path.resolve(String(p)) === at) {
      done = true;
      swap();
    }
    return st;
  }) as typeof fsp.lstat;
  fsp.lstat = patched;
  t.after(() => {
    fsp.lstat = real;
    return Promise.resolve();
  });
}

async function setup(t: Parameters<typeof tempDir>[0]) {
  const dir = await tempDir(t);
  const root = path.join(dir, 'store');
  const outside = path.join(dir, 'outside');
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(outside, 'notes.txt'), 'mine\n');
  const writer = await StoreWriter.open(root, {});
  return { dir, root, outside, writer };
}

test('removeTree deletes nothing outside when its folder is swapped for a link after the check', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  const folder = path.join(root, 'mcp', 'server');
  await fsp.mkdir(folder, { recursive: true });
  await fsp.writeFile(path.join(folder, 'notes.txt'), 'stored\n');
  swapAfterCheck(t, folder, () => {
    fs.renameSync(folder, path.join(dir, 'moved'));
    fs.symlinkSync(outside, folder);
  });
  await writer.removeTree(folder).catch(() => undefined);
  assert.equal(await fsp.readFile(path.join(outside, 'notes.txt'), 'utf8'), 'mine\n');
});

test('remove deletes nothing outside when the folder holding the file is swapped for a link after the check', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  const folder = path.join(root, 'tool-outputs');
  await fsp.mkdir(folder, { recursive: true });
  await fsp.writeFile(path.join(folder, 'notes.txt'), 'stored\n');
  swapAfterCheck(t, path.join(folder, 'notes.txt'), () => {
    fs.renameSync(folder, path.join(dir, 'moved'));
    fs.symlinkSync(outside, folder);
  });
  await writer.remove(path.join(folder, 'notes.txt')).catch(() => undefined);
  assert.equal(await fsp.readFile(path.join(outside, 'notes.txt'), 'utf8'), 'mine\n');
});

test('removeTree and remove still delete the store files themselves', async (t) => {
  const { root, writer } = await setup(t);
  const folder = path.join(root, 'mcp', 'server');
  await fsp.mkdir(path.join(folder, 'deep'), { recursive: true });
  await fsp.writeFile(path.join(folder, 'a.txt'), 'a\n');
  await fsp.writeFile(path.join(folder, 'deep', 'b.txt'), 'b\n');
  assert.deepEqual(await writer.removeTree(folder), []);
  assert.equal(fs.existsSync(folder), false);
  await fsp.mkdir(path.join(root, 'tool-outputs'), { recursive: true });
  await fsp.writeFile(path.join(root, 'tool-outputs', 'c.txt'), 'c\n');
  assert.equal(await writer.remove(path.join(root, 'tool-outputs', 'c.txt')), true);
  assert.equal(fs.existsSync(path.join(root, 'tool-outputs', 'c.txt')), false);
});

/** Runs `swap` once, before the first realpath of `at` (the writer's check after an open) runs. */
function swapBeforeRealpath(t: Parameters<typeof tempDir>[0], at: string, swap: () => void): void {
  const real = fsp.realpath;
  let done = false;
  const patched = (async (p: fs.PathLike, o?: fs.ObjectEncodingOptions) => {
    if (!done && path.resolve(String(p)) === at) {
      done = true;
      swap();
    }
    return real(p, o);
  }) as typeof fsp.realpath;
  fsp.realpath = patched;
  t.after(() => {
    fsp.realpath = real;
    return Promise.resolve();
  });
}

test('an append whose folder was a link at the open and swapped back before the check is refused', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  const folder = path.join(root, 'terminals');
  await fsp.mkdir(folder, { recursive: true });
  const log = path.join(folder, 'bash.log');
  await fsp.writeFile(log, 'earlier\n');
  const away = path.join(dir, 'away');
  swapAfterCheck(t, log, () => {
    fs.renameSync(folder, away);
    fs.symlinkSync(outside, folder);
  });
  swapBeforeRealpath(t, folder, () => {
    fs.unlinkSync(folder);
    fs.renameSync(away, folder);
  });
  const opened = await writer.openAppend(log).then(
    (h) => h,
    () => undefined,
  );
  await opened?.close();
  assert.equal(opened, undefined, 'refused');
  assert.deepEqual(fs.readdirSync(outside).sort(), ['notes.txt'], 'nothing was created outside');
});

test('rename moves nothing out of the store when the folder it moves into is swapped for a link after the check', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  await fsp.mkdir(path.join(root, 'streams'), { recursive: true });
  await fsp.mkdir(path.join(root, 'tool-outputs'), { recursive: true });
  const from = path.join(root, 'streams', 'out.partial');
  const to = path.join(root, 'tool-outputs', 'out.txt');
  await fsp.writeFile(from, 'stored\n');
  // After the check of the folder (the target file does not exist yet: its lstat throws).
  swapAfterCheck(t, path.join(root, 'tool-outputs'), () => {
    fs.renameSync(path.join(root, 'tool-outputs'), path.join(dir, 'moved'));
    fs.symlinkSync(outside, path.join(root, 'tool-outputs'));
  });
  const refused = await writer.rename(from, to).then(
    () => false,
    () => true,
  );
  assert.deepEqual(fs.readdirSync(outside).sort(), ['notes.txt'], 'nothing was moved outside');
  assert.equal(refused, true);
  assert.equal(fs.readFileSync(from, 'utf8'), 'stored\n', 'the file stays where it was');
});

test('rename takes nothing into the store when the folder it moves from is swapped for a link after the check', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  await fsp.mkdir(path.join(root, 'streams'), { recursive: true });
  const from = path.join(root, 'streams', 'notes.txt');
  const to = path.join(root, 'tool-outputs', 'taken.txt');
  await fsp.writeFile(from, 'stored\n');
  swapAfterCheck(t, from, () => {
    fs.renameSync(path.join(root, 'streams'), path.join(dir, 'moved'));
    fs.symlinkSync(outside, path.join(root, 'streams'));
  });
  const refused = await writer.rename(from, to).then(
    () => false,
    () => true,
  );
  assert.equal(fs.readFileSync(path.join(outside, 'notes.txt'), 'utf8'), 'mine\n', 'the outside file stays');
  assert.equal(fs.existsSync(to), false, 'nothing was taken into the store');
  assert.equal(refused, true);
});

test('rename still moves a store file between folders and within one', async (t) => {
  const { root, writer } = await setup(t);
  await fsp.mkdir(path.join(root, 'streams'), { recursive: true });
  const from = path.join(root, 'streams', 'a.partial');
  await fsp.writeFile(from, 'a\n');
  await writer.rename(from, path.join(root, 'streams', 'a.txt'));
  await writer.rename(path.join(root, 'streams', 'a.txt'), path.join(root, 'tool-outputs', 'a.txt'));
  assert.equal(fs.readFileSync(path.join(root, 'tool-outputs', 'a.txt'), 'utf8'), 'a\n');
  assert.deepEqual(fs.readdirSync(path.join(root, 'streams')), []);
});

for (const remove of ['removeEmptyDir', 'removeTree'] as const)
  test(`${remove} removes no folder outside when the folder above is swapped for a link after the check`, async (t) => {
    const { dir, root, outside, writer } = await setup(t);
    const above = path.join(root, 'mcp');
    const folder = path.join(above, 'server');
    await fsp.mkdir(folder, { recursive: true });
    await fsp.mkdir(path.join(outside, 'server'));
    swapAfterCheck(t, folder, () => {
      fs.renameSync(above, path.join(dir, 'moved'));
      fs.symlinkSync(outside, above);
    });
    await writer[remove](folder).catch(() => undefined);
    assert.equal(fs.existsSync(path.join(outside, 'server')), true, 'the outside folder is kept');
  });

test('removeEmptyDir still removes an empty store folder and keeps one with files', async (t) => {
  const { root, writer } = await setup(t);
  await fsp.mkdir(path.join(root, 'a', 'b'), { recursive: true });
  await fsp.writeFile(path.join(root, 'a', 'f.txt'), 'f\n');
  assert.equal(await writer.removeEmptyDir(path.join(root, 'a', 'b')), true);
  assert.equal(await writer.removeEmptyDir(path.join(root, 'a')), false);
  assert.deepEqual(fs.readdirSync(path.join(root, 'a')), ['f.txt']);
});

test('a folder the writer makes is not made outside when the folder above is swapped for a link after the check', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  const above = path.join(root, 'mcp');
  await fsp.mkdir(above, { recursive: true });
  swapAfterCheck(t, above, () => {
    fs.renameSync(above, path.join(dir, 'moved'));
    fs.symlinkSync(outside, above);
  });
  const refused = await writer.writeFile(path.join(above, 'server', 'tools.json'), '{}\n').then(
    () => false,
    () => true,
  );
  assert.deepEqual(fs.readdirSync(outside).sort(), ['notes.txt'], 'nothing was made outside');
  assert.equal(refused, true);
});
