import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { nonUtf8EditRefusalOfFile } from '../../../src/core/agent/tools';

const dir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'edit-enc-'));

test('the file is checked through one handle: a Latin-1 file open as UTF-8 is refused, a UTF-8 one is not', async () => {
  const d = dir();
  fs.writeFileSync(path.join(d, 'menu.txt'), Buffer.from('Caf\xe9\n', 'latin1'));
  fs.writeFileSync(path.join(d, 'ok.txt'), 'café\n');
  assert.match(
    (await nonUtf8EditRefusalOfFile('menu.txt', 'utf8', path.join(d, 'menu.txt'))) ?? '',
    /^Refused: menu\.txt is not UTF-8/,
  );
  assert.equal(await nonUtf8EditRefusalOfFile('ok.txt', 'utf8', path.join(d, 'ok.txt')), undefined);
  assert.equal(await nonUtf8EditRefusalOfFile('gone.txt', 'utf8', path.join(d, 'gone.txt')), undefined);
});

test('a FIFO or a device swapped in for the file is refused without waiting or reading it', async () => {
  const d = dir();
  const fifo = path.join(d, 'fifo.txt');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo is needed for this test');
  assert.match((await nonUtf8EditRefusalOfFile('fifo.txt', 'utf8', fifo)) ?? '', /fifo\.txt is not a regular file now/);
  fs.symlinkSync('/dev/zero', path.join(d, 'zero.txt'));
  assert.match(
    (await nonUtf8EditRefusalOfFile('zero.txt', 'utf8', path.join(d, 'zero.txt'))) ?? '',
    /zero\.txt is not a regular file now/,
  );
});
