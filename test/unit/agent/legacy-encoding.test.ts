import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ToolContext } from '../../../src/core/agent/tool-registry';
import { createWorkspaceTools, lastLines } from '../../../src/core/agent/tools';
import { readLineRange } from '../../../src/core/agent/tools/line-range';
import { Utf8Census } from '../../../src/core/legacy-encoding';

const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };

async function inTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-legacy-')));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const win1252 = (text: string): Buffer =>
  Buffer.from([...text].map((c) => (c === '€' ? 0x80 : c === '’' ? 0x92 : c.charCodeAt(0))));

test('read_file, tail and grep show a Latin-1 / Windows-1252 file as its text and say it is not UTF-8', async () => {
  await inTempDir(async (ws) => {
    // An Excel CSV export: before, every accented letter was U+FFFD, which an edit could write back.
    await writeFile(path.join(ws, 'prices.csv'), win1252('Café;Prix\r\nCrème brûlée;4,50 €\r\nL’été;3 €\r\n'));
    const tools = createWorkspaceTools({ workspaceRoot: ws });
    const run = (name: string, args: Record<string, unknown>) => tools.find((t) => t.name === name)!.run(args, ctx);
    assert.deepEqual(await run('read_file', { path: 'prices.csv', offset: 2 }), {
      ok: true,
      text: 'prices.csv (read as Windows-1252, not UTF-8) lines 2-3 of 3:\n2\tCrème brûlée;4,50 €\n3\tL’été;3 €',
    });
    assert.deepEqual(await run('tail', { path: 'prices.csv', lines: 1 }), {
      ok: true,
      text: 'Last 1 lines of prices.csv (read as Windows-1252, not UTF-8):\nL’été;3 €',
    });
    const found = await run('grep', { pattern: 'Cr|Caf' });
    assert.equal(found.ok, true);
    assert.match(
      found.text,
      /^prices\.csv:1: Café;Prix\nprices\.csv:2: Crème brûlée;4,50 €\n\(2 matched lines are not UTF-8/,
    );
  });
});

test('a UTF-8 file with one stray byte stays UTF-8; a Latin-1 byte far into a file is still found', async () => {
  await inTempDir(async (ws) => {
    const mixed = path.join(ws, 'mixed.txt');
    await writeFile(mixed, Buffer.concat([Buffer.from('naïve 日本\n'), Buffer.from([0xe9, 0x0a])]));
    const range = await readLineRange(mixed);
    assert.deepEqual(range.lines, ['naïve 日本', '\ufffd']);
    assert.equal(range.encoding, undefined);
    const late = path.join(ws, 'late.txt');
    await writeFile(late, Buffer.concat([Buffer.from('ascii line\n'.repeat(1000)), win1252('déjà vu\n')]));
    const last = await readLineRange(late, { offset: 1001, chunkBytes: 4096 });
    assert.deepEqual(last.lines, ['déjà vu']);
    assert.equal(last.encoding, 'windows-1252');
    assert.deepEqual(await lastLines(late, (await readLineRange(late)).size, 1), ['déjà vu']);
  });
});

test('a UTF-8 byte order mark is not part of line 1 in read_file and tail, as in grep', async () => {
  await inTempDir(async (ws) => {
    await writeFile(path.join(ws, 'bom.txt'), '\ufeffhello\nworld\n');
    const tools = createWorkspaceTools({ workspaceRoot: ws });
    const run = (name: string, args: Record<string, unknown>) => tools.find((t) => t.name === name)!.run(args, ctx);
    assert.equal((await run('read_file', { path: 'bom.txt' })).text, 'bom.txt lines 1-2 of 2:\n1\thello\n2\tworld');
    assert.equal((await run('tail', { path: 'bom.txt' })).text, 'Last 2 lines of bom.txt:\nhello\nworld');
    assert.equal((await run('grep', { pattern: '^hello' })).text, 'bom.txt:1: hello');
  });
});

test('property: UTF-8 text, cut into chunks anywhere, is never taken for Windows-1252', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
      const bytes = Buffer.from(text, 'utf8');
      const census = new Utf8Census();
      let from = 0;
      for (const c of [...cuts.map((x) => x % (bytes.length + 1))].sort((a, b) => a - b)) {
        census.push(bytes.subarray(from, Math.max(from, c)));
        from = Math.max(from, c);
      }
      census.end(bytes.subarray(from));
      assert.equal(census.invalid, false);
      assert.equal(census.legacy, false);
    }),
    { numRuns: 500 },
  );
});

test('property: Windows-1252 text with a non-ASCII letter reads back whole, in any chunk size', async () => {
  const piece = fc.constantFrom('a', 'é', 'ü', '€', '’', '\n', '\r\n', ' ', 'ÿ', '©');
  await inTempDir(async (dir) => {
    const file = path.join(dir, 'f.txt');
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 80 }),
        fc.integer({ min: 1, max: 9 }),
        async (pieces, chunkBytes) => {
          // Apart by an ASCII letter: two high bytes side by side can happen to be a UTF-8 character (é© is 驀).
          const text = `é ${pieces.join('a')}`;
          const lines = text.split(/\r?\n/);
          if (lines.at(-1) === '') lines.pop();
          await writeFile(file, win1252(text));
          const range = await readLineRange(file, { chunkBytes, limit: 2000 });
          assert.deepEqual(range.lines, lines);
          assert.equal(range.encoding, 'windows-1252');
        },
      ),
      { numRuns: 200 },
    );
  });
});
