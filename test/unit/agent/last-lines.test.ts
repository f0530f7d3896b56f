import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { lastLines } from '../../../src/core/agent/tools';
import { startsBinary } from '../../../src/core/agent/tools/files';
import { MAX_LINE_CHARS } from '../../../src/core/agent/tools/line-range';

async function withFile<T>(content: string | Buffer, run: (file: string, size: number) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-tail-'));
  try {
    const file = path.join(dir, 'f.log');
    await writeFile(file, content);
    return await run(file, Buffer.byteLength(content));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('property: the last n lines are those of the whole text split into lines', async () => {
  const piece = fc.constantFrom('a', 'é', '\n', '\r\n', '\r', ' ', '界');
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 200 }), fc.integer({ min: 1, max: 12 }), async (pieces, n) => {
      const text = pieces.join('');
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      await withFile(text, async (file, size) => assert.deepEqual(await lastLines(file, size, n), lines.slice(-n)));
    }),
    { numRuns: 300 },
  );
});

// (Its time is the bench's business; this asserts what is read of a line far longer than what is shown.)
test('a file that is one line of megabytes gives its start, read only as far as it is shown, and the lines around it', async () => {
  const big = Buffer.alloc(16 * 1024 * 1024, 'x');
  big[big.length - 1] = 10;
  await withFile(Buffer.concat([Buffer.from('first\n'), big, Buffer.from('last\n')]), async (file, size) => {
    const lines = await lastLines(file, size, 5);
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'first');
    assert.ok(lines[1]!.length > MAX_LINE_CHARS && lines[1]!.length < MAX_LINE_CHARS * 5);
    assert.equal(lines[2], 'last');
  });
});

test('a file shortened after it was measured gives its lines as they are now, not zeros or stale bytes', async () => {
  await withFile('one\ntwo\nthree\n'.repeat(10_000), async (file, size) => {
    const fh = await open(file);
    try {
      await truncate(file, 8);
      assert.deepEqual(await lastLines(fh, size, 3), ['one', 'two']);
      assert.equal(await startsBinary(fh), false);
      await truncate(file, 0);
      assert.deepEqual(await lastLines(fh, size, 3), []);
    } finally {
      await fh.close();
    }
  });
});
