// A store folder used through a handle on it, on Linux (/proc/self/fd) and as on systems without /proc
// (the lookup turned off): a folder swapped for a link, before the open or after the check, is refused
// before anything in it is touched, never reached by path silently.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { FolderMovedError, inPinnedFolder } from '../../../src/core/store/pinned-dir';

function dirs(): { dir: string; out: string } {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pinned-dir-')));
  fs.mkdirSync(path.join(top, 'store', 'mcp', 'x'), { recursive: true });
  fs.mkdirSync(path.join(top, 'out'));
  fs.writeFileSync(path.join(top, 'store', 'mcp', 'x', 'tool.json'), '{}\n');
  fs.writeFileSync(path.join(top, 'out', 'tool.json'), 'the user file\n');
  return { dir: path.join(top, 'store', 'mcp', 'x'), out: path.join(top, 'out') };
}

/** Deletes `name` in `dir` through inPinnedFolder; `before` runs after the check, before the delete. */
function remove(dir: string, name: string, proc: boolean, before?: () => void): Promise<void> {
  return inPinnedFolder(
    dir,
    (flags) => fsp.open(dir, flags),
    (real) => real === dir,
    async (entry) => {
      before?.();
      await fsp.unlink(entry(name));
    },
    { proc },
  );
}

/** Puts a link to `out` where `dir` was (the folder moved away). */
function swap(dir: string, out: string): void {
  fs.renameSync(dir, `${dir}.moved`);
  fs.symlinkSync(out, dir);
}

for (const proc of [true, false]) {
  const how = proc ? 'with /proc' : 'without /proc';

  test(`${how}: an entry of the checked folder is deleted`, async () => {
    const { dir } = dirs();
    await remove(dir, 'tool.json', proc);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  test(`${how}: a folder that is a link when opened is refused`, async () => {
    const { dir, out } = dirs();
    swap(dir, out);
    await assert.rejects(remove(dir, 'tool.json', proc), FolderMovedError);
    assert.equal(fs.readFileSync(path.join(out, 'tool.json'), 'utf8'), 'the user file\n');
  });

  test(`${how}: a folder swapped for a link after the check is not deleted in`, async () => {
    const { dir, out } = dirs();
    await remove(dir, 'tool.json', proc, () => swap(dir, out)).catch((e: unknown) => {
      assert.ok(e instanceof FolderMovedError, String(e));
    });
    assert.equal(fs.readFileSync(path.join(out, 'tool.json'), 'utf8'), 'the user file\n');
  });
}

test('without /proc, a folder replaced by another after the open is refused: the handle is compared, not the path', async () => {
  const { dir } = dirs();
  let used = false;
  await assert.rejects(
    inPinnedFolder(
      dir,
      async (flags) => {
        const handle = await fsp.open(dir, flags);
        fs.renameSync(dir, `${dir}.moved`);
        fs.mkdirSync(dir);
        return handle;
      },
      (real) => real === dir,
      async () => {
        used = true;
      },
      { proc: false },
    ),
    FolderMovedError,
  );
  assert.equal(used, false);
});
