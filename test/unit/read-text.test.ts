// Whole-file reads of files a repository can supply: a link to a device, a FIFO or a huge file is refused
// at once, with the reason, instead of being read until memory runs out or waiting forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openChecked, ReadRefusedError, readTextFile } from '../../src/core/read-text';
import { loadMcpConfig } from '../../src/core/mcp/config';

async function withDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-read-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a regular file is read whole, through a link too; a missing one fails as the file system says', async (t) => {
  const dir = await withDir(t);
  const file = path.join(dir, 'a.txt');
  const text = '\ufeffé😀 line\n'.repeat(50_000);
  await writeFile(file, text);
  await symlink(file, path.join(dir, 'link.txt'));
  assert.equal(await readTextFile(file, 10 * 1024 * 1024), text);
  assert.equal(await readTextFile(path.join(dir, 'link.txt'), 10 * 1024 * 1024), text);
  assert.equal(await readTextFile(file, Buffer.byteLength(text)), text, 'exactly at the limit');
  await assert.rejects(readTextFile(path.join(dir, 'none'), 100), { code: 'ENOENT' });
});

test('links to devices, a FIFO, a folder and a file over the limit are refused with the reason', async (t) => {
  const dir = await withDir(t);
  for (const device of ['/dev/zero', '/dev/urandom']) {
    const link = path.join(dir, path.basename(device));
    await symlink(device, link);
    await assert.rejects(readTextFile(link, 1024 * 1024), (e: unknown) => {
      assert.ok(e instanceof ReadRefusedError);
      assert.equal(e.reason, 'not-a-file');
      assert.equal(e.message, `${link} is not a regular file (a character device); it is not read`);
      return true;
    });
  }
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  await assert.rejects(readTextFile(fifo, 1024), { reason: 'not-a-file' }, 'no writer: it would wait forever');
  await assert.rejects(readTextFile(dir, 1024), { reason: 'not-a-file' });
  const big = path.join(dir, 'big');
  await writeFile(big, 'x'.repeat(2 * 1024 * 1024 + 1));
  await assert.rejects(readTextFile(big, 2 * 1024 * 1024), {
    reason: 'too-large',
    message: `${big} is larger than 2 MB, more than such a file holds; it is not read`,
  });
});

test("a cloned repository's .vscode/mcp.json linked to /dev/zero is a config error; the other configs still load", async (t) => {
  const ws = await withDir(t);
  execFileSync('mkdir', ['-p', path.join(ws, '.vscode'), path.join(ws, '.cursor')]);
  await symlink('/dev/zero', path.join(ws, '.vscode', 'mcp.json'));
  await writeFile(path.join(ws, '.cursor', 'mcp.json'), '{"mcpServers": {"ok": {"command": "node"}}}');
  const started = performance.now();
  const config = await loadMcpConfig({ workspaceFolder: ws });
  assert.ok(performance.now() - started < 5000, 'refused at once, not read for seconds');
  assert.deepEqual(
    config.servers.map((s) => s.name),
    ['ok'],
  );
  assert.deepEqual(
    config.errors.map((e) => e.message),
    [`${path.join(ws, '.vscode', 'mcp.json')} is not a regular file (a character device); it is not read`],
  );
});

test('openChecked opens the checked path itself and refuses one that now leads elsewhere or is no file', async (t) => {
  const dir = await withDir(t);
  const file = path.join(dir, 'a.txt');
  await writeFile(file, 'text\n');
  const { fh, st } = await openChecked(file);
  assert.equal(st.size, 5);
  await fh.close();
  // A path that goes through a link (a folder swapped for one after the check) is not the checked file.
  await symlink(dir, path.join(dir, 'via'));
  await assert.rejects(openChecked(path.join(dir, 'via', 'a.txt')), (e: unknown) => {
    assert.ok(e instanceof ReadRefusedError);
    assert.equal(e.reason, 'moved');
    return true;
  });
  execFileSync('mkfifo', [path.join(dir, 'pipe')]);
  await assert.rejects(openChecked(path.join(dir, 'pipe')), { reason: 'not-a-file' });
});

test('openChecked without /proc compares the opened file with the path: a link on the way or a replaced file is refused', async (t) => {
  const dir = await withDir(t);
  const file = path.join(dir, 'a.txt');
  await writeFile(file, 'text\n');
  const noProc = { proc: false };
  const { fh } = await openChecked(file, noProc);
  await fh.close();
  await symlink(dir, path.join(dir, 'via'));
  await assert.rejects(openChecked(path.join(dir, 'via', 'a.txt'), noProc), { reason: 'moved' });
  await symlink(file, path.join(dir, 'link.txt'));
  await assert.rejects(openChecked(path.join(dir, 'link.txt'), noProc), { reason: 'moved' });
  execFileSync('mkfifo', [path.join(dir, 'pipe')]);
  await assert.rejects(openChecked(path.join(dir, 'pipe'), noProc), { reason: 'not-a-file' });
});
