import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ToolContext } from '../../../src/core/agent/tool-registry';
import { createWorkspaceTools, lastLines } from '../../../src/core/agent/tools';
import { readLineRange } from '../../../src/core/agent/tools/line-range';
import type { Utf16 } from '../../../src/core/agent/tools/utf16';

const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };

/** The text as a UTF-16 file with its byte order mark. */
function utf16(text: string, order: Utf16): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return order === 'utf-16le' ? le : le.swap16();
}

async function inTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-utf16-')));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('read_file and tail show a UTF-16 file (Windows PowerShell `>`) as text and say its encoding', async () => {
  await inTempDir(async (ws) => {
    await writeFile(path.join(ws, 'out.txt'), utf16('Name  Status\r\n----  ------\r\nsvc   Running\r\n', 'utf-16le'));
    await writeFile(path.join(ws, 'be.txt'), utf16('first\nsecond 🚀\n', 'utf-16be'));
    const tools = createWorkspaceTools({ workspaceRoot: ws });
    const run = (name: string, args: Record<string, unknown>) => tools.find((t) => t.name === name)!.run(args, ctx);
    assert.deepEqual(await run('read_file', { path: 'out.txt', offset: 2 }), {
      ok: true,
      text: 'out.txt (UTF-16LE) lines 2-3 of 3:\n2\t----  ------\n3\tsvc   Running',
    });
    assert.deepEqual(await run('tail', { path: 'out.txt', lines: 1 }), {
      ok: true,
      text: 'Last 1 lines of out.txt (UTF-16LE):\nsvc   Running',
    });
    assert.deepEqual(await run('tail', { path: 'be.txt' }), {
      ok: true,
      text: 'Last 2 lines of be.txt (UTF-16BE):\nfirst\nsecond 🚀',
    });
  });
});

test('property: UTF-16 lines read from the start or the end are those of the text split into lines', async () => {
  // U+0A0A and U+010A hold byte 10 without being a newline; a surrogate pair may straddle chunks.
  const piece = fc.constantFrom('a', 'é', '\n', '\r\n', '\r', 'ਊ', 'Ċ', '🚀', '界');
  await inTempDir(async (dir) => {
    const file = path.join(dir, 'f.txt');
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 120 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom<Utf16>('utf-16le', 'utf-16be'),
        fc.integer({ min: 1, max: 9 }),
        async (pieces, n, order, chunkBytes) => {
          const text = pieces.join('');
          const lines = text.split(/\r?\n/);
          if (lines.at(-1) === '') lines.pop();
          const bytes = utf16(text, order);
          await writeFile(file, bytes);
          assert.deepEqual(await lastLines(file, bytes.length, n, order), lines.slice(-n));
          const range = await readLineRange(file, { encoding: order, chunkBytes, limit: 2000 });
          assert.deepEqual(range.lines, lines);
        },
      ),
      { numRuns: 300 },
    );
  });
});
