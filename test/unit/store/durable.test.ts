import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseJsonl, readJsonl } from '../../../src/core/store/durable';
import { StoreWriter } from '../../../src/core/store/store-writer';
import { waitFor } from '../../support/wait';
import { exited, startChild, tempDir } from './helpers';

interface Rec {
  writer: string;
  i: number;
  payload: string;
}

test('parseJsonl skips and reports a torn last line and bad lines', () => {
  const r = parseJsonl<{ a: number }>('{"a":1}\n\nnot json\n{"a":2}\n{"a":');
  assert.deepEqual(r.records, [{ a: 1 }, { a: 2 }]);
  assert.equal(r.tornTail, '{"a":');
  assert.deepEqual(r.badLines, [{ line: 3, text: 'not json' }]);
  assert.equal(parseJsonl('{"a":1}\n').tornTail, undefined);
});

test('readJsonl reads a missing file as empty', async (t) => {
  const dir = await tempDir(t);
  assert.deepEqual(await readJsonl(path.join(dir, 'none.jsonl')), { records: [], badLines: [] });
});

test('writeFile replaces the whole file and leaves no temp files', async (t) => {
  const dir = await tempDir(t);
  const writer = await StoreWriter.open(dir);
  const writeFileAtomic = (f: string, text: string): Promise<boolean> => writer.writeFile(f, text);
  const f = path.join(dir, 'sub', 'index.json');
  await writeFileAtomic(f, 'old');
  await writeFileAtomic(f, JSON.stringify({ v: 2 }));
  assert.deepEqual(JSON.parse(await fsp.readFile(f, 'utf8')), { v: 2 });
  assert.deepEqual(await fsp.readdir(path.dirname(f)), ['index.json']);
  // A target that cannot be written (a folder in its place) fails with a clear error and no temp file.
  await fsp.mkdir(path.join(dir, 'sub', 'dir.json'));
  await assert.rejects(writeFileAtomic(path.join(dir, 'sub', 'dir.json'), 'x'), /Could not write/);
  assert.deepEqual((await fsp.readdir(path.dirname(f))).sort(), ['dir.json', 'index.json']);
});

test('two processes appending to one file never interleave records', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'shared.jsonl');
  const count = 400;
  // 20 KB records: far beyond PIPE_BUF, so only O_APPEND + one write keeps them whole.
  const children = await Promise.all(
    ['a', 'b'].map((w) => startChild('appender.ts', [file, w, String(count), String(20_000)])),
  );
  const codes = await Promise.all(children.map(exited));
  assert.deepEqual(codes, [0, 0]);
  const r = await readJsonl<Rec>(file);
  assert.deepEqual(r.badLines, []);
  assert.equal(r.tornTail, undefined);
  for (const w of ['a', 'b']) {
    const mine = r.records.filter((x) => x.writer === w).map((x) => x.i);
    assert.deepEqual(
      mine,
      Array.from({ length: count }, (_, i) => i),
      `writer ${w} records in order`,
    );
  }
});

test('a process killed with SIGKILL mid-write loses at most the record in flight', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'crash.jsonl');
  const child = await startChild('appender.ts', [file, 'k', '0', String(256 * 1024)]);
  const size = async (): Promise<number> => (await fsp.stat(file).catch(() => ({ size: 0 }))).size;
  await waitFor(async () => (await size()) >= 8 * 1024 * 1024, 30_000, 'the appender wrote 8 MB', 5);
  child.kill('SIGKILL');
  await exited(child);
  const r = await readJsonl<Rec>(file);
  assert.deepEqual(r.badLines, [], 'every complete line parses');
  assert.ok(r.records.length >= 8, `records: ${r.records.length}`);
  assert.deepEqual(
    r.records.map((x) => x.i),
    Array.from({ length: r.records.length }, (_, i) => i),
  );
  // Appending after the crash starts on a fresh line: the torn tail (if any) stays the only bad line.
  const f = await (await StoreWriter.open(dir)).openAppend(file);
  await f.append('{"writer":"after","i":0,"payload":""}\n');
  await f.close();
  const after = await readJsonl<Rec>(file);
  assert.equal(after.records.at(-1)?.writer, 'after');
  assert.equal(after.badLines.length, r.tornTail === undefined ? 0 : 1);
  assert.equal(after.records.length, r.records.length + 1);
});
