// A store file's lines are read in chunks: every line up to the cap exactly as written (multi-byte
// characters cut by a chunk's end included), longer ones skipped and counted, never held whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import fc from 'fast-check';
import { cappedLines } from '../../../src/core/store/capped-lines';
import { summarizeHistoryFile } from '../../../src/core/agent/history-summary';
import { tempDir } from './helpers';

async function collect(file: string, max: number): Promise<{ lines: string[]; skipped: number }> {
  const r = cappedLines(file, max);
  const lines: string[] = [];
  for await (const l of r.lines) lines.push(l);
  return { lines, skipped: r.skipped() };
}

test('the lines up to the cap, as written; longer ones skipped (property)', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'h.jsonl');
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.tuple(fc.constantFrom('a', 'é', '€', '😀'), fc.integer({ min: 1, max: 70_000 })).map(([c, n]) => c.repeat(n)),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        line.map((l) => l.replace(/\n/g, ' ')),
        { maxLength: 8 },
      ),
      fc.boolean(),
      fc.integer({ min: 1, max: 200_000 }),
      async (lines, finalNewline, max) => {
        await writeFile(file, lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : ''));
        const expected = lines.filter(
          (l, i) => Buffer.byteLength(l) <= max && (l !== '' || i < lines.length - 1 || finalNewline),
        );
        const got = await collect(file, max);
        assert.deepEqual(got.lines, expected);
        assert.equal(got.skipped, lines.filter((l) => Buffer.byteLength(l) > max).length);
      },
    ),
    { numRuns: 150 },
  );
});

test('a history file of one huge line is listed from its other lines, and a FIFO is refused', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'h.jsonl');
  const user = { index: 0, at: '2026-11-26T00:00:00Z', message: { role: 'user', content: 'Fix the parser' } };
  const huge = { index: 1, message: { role: 'tool', content: 'x'.repeat(20 * 1024 * 1024) } };
  await writeFile(file, `${JSON.stringify(huge)}\n${JSON.stringify(user)}\n`);
  const s = await summarizeHistoryFile(file);
  assert.equal(s.title, 'Fix the parser');
  const r = cappedLines(file, 1024);
  for await (const _ of r.lines);
  assert.equal(r.skipped(), 1);
  if (process.platform !== 'win32') {
    const { execFileSync } = await import('node:child_process');
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(collect(fifo, 1024), /not a regular file/);
    await assert.rejects(summarizeHistoryFile(fifo), /not a regular file/, 'the History list does not wait on it');
  }
});
