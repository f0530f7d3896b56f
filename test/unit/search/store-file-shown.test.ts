// What the editor is given of a store file: the text read from the checked file, or why it is refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readStoreFileToShow } from '../../../src/core/search/single-name';

function store(): { root: string; outside: string } {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shown-')));
  fs.mkdirSync(path.join(top, 'store', 'terminals'), { recursive: true });
  fs.writeFileSync(path.join(top, 'secret'), 'private key\n');
  return { root: path.join(top, 'store'), outside: path.join(top, 'secret') };
}

test('a store file is shown as the text read from it', async () => {
  const { root } = store();
  const file = path.join(root, 'terminals', 'a.log');
  fs.writeFileSync(file, 'line 1\nline 2\n');
  assert.deepEqual(await readStoreFileToShow(root, file), {
    ok: true,
    real: file,
    text: 'line 1\nline 2\n',
    cut: false,
  });
});

test('a link out of the store, a hard link and a folder are refused, with nothing of them read', async () => {
  const { root, outside } = store();
  const link = path.join(root, 'terminals', 'link.log');
  fs.symlinkSync(outside, link);
  const hard = path.join(root, 'terminals', 'hard.log');
  fs.linkSync(outside, hard);
  for (const [file, why] of [
    [link, /leads outside the Context Desk folder/],
    [hard, /has 2 names \(a hard link\).*is not opened/],
    [path.join(root, 'terminals'), /is not a regular file \(a folder\); it is not opened/],
    [path.join(root, 'gone.log'), /does not exist/],
    [outside, /leads outside/],
  ] as const) {
    const shown = await readStoreFileToShow(root, file);
    assert.equal(shown.ok, false, file);
    assert.match(shown.ok ? '' : shown.why, why);
  }
});

test('a file over the limit is shown up to its last whole line that fits, and says it is cut', async () => {
  const { root } = store();
  const file = path.join(root, 'terminals', 'big.log');
  fs.writeFileSync(file, 'aaaa\nbbbb\ncccc\n');
  assert.deepEqual(await readStoreFileToShow(root, file, 12), {
    ok: true,
    real: file,
    text: 'aaaa\nbbbb\n',
    cut: true,
  });
  assert.deepEqual(await readStoreFileToShow(root, file, 15), {
    ok: true,
    real: file,
    text: 'aaaa\nbbbb\ncccc\n',
    cut: false,
  });
});
