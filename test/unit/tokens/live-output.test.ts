// The live agent counts every tool output whole (the `Full output (N lines, T tokens)` line and the
// stored outputs' index): that count is shown as exact, so it must be tiktoken's count of the whole
// output, and it must stay fast on hostile output (a minified bundle, a base64 dump, one huge line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { createTokenizer } from '../../../src/core/tokens/tokenizer';
import { acquireEncoding } from '../../../src/core/tokens/encodings';
import { assertLinearGrowthAsync } from '../../support/linear-growth';
import { tempDir } from '../store/helpers';

async function openStore(t: Parameters<typeof tempDir>[0]): Promise<ContextStore> {
  const ws = await tempDir(t);
  return ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
}

/** The output as a running command streams it: chunks of an odd size, so batches end anywhere. */
async function* streamed(text: string, size: number): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

// The output was counted batch by batch (256 KB each) and the counts added up: a batch that ended
// inside a run of newlines or in a word counted one token too many there, and the sum was shown as exact.
test('a streamed long output is counted as tiktoken counts it whole, wherever its batches end', async (t) => {
  const store = await openStore(t);
  const whole = acquireEncoding('o200k');
  try {
    const shapes = ['word\n\n\n\n\n\n\n\n'.repeat(60_000), 'abc de '.repeat(150_000), 'ab\n\n\n'.repeat(200_000)];
    for (const text of shapes) {
      const r = await new ToolOutputStore(store, createTokenizer('o200k')).save({
        session: 's',
        turn: 1,
        tool: 'run',
        output: streamed(text, 65_537),
      });
      const disk = await fsp.readFile(r.storedAt!, 'utf8');
      assert.equal(disk, text);
      assert.equal(r.tokensExact, true);
      assert.equal(r.tokens, whole.count(text), JSON.stringify(text.slice(0, 12)));
    }
  } finally {
    whole.release();
  }
});

test('the count of a streamed output does not depend on how it was chunked (property)', async (t) => {
  const store = await openStore(t);
  const whole = acquireEncoding('o200k');
  try {
    const unit = fc.constantFrom('a', 'Zz', ' ', '\n', '\n\n', '  \n', '=', '/', '7', 'é', '\t');
    await fc.assert(
      fc.asyncProperty(
        fc.array(unit, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 3_000, max: 40_000 }),
        fc.integer({ min: 1_000, max: 70_000 }),
        async (units, repeat, chunk) => {
          const text = units.join('').repeat(Math.ceil(repeat / units.join('').length) * 12);
          const r = await new ToolOutputStore(store, createTokenizer('o200k')).save({
            session: 'p',
            turn: 1,
            tool: 'run',
            output: streamed(text, chunk),
          });
          assert.equal(r.tokens, whole.count(await fsp.readFile(r.storedAt!, 'utf8')));
        },
      ),
      { numRuns: 12 },
    );
  } finally {
    whole.release();
  }
});

// 4 MB with no whitespace took ~40 s to count on the extension host's thread (tiktoken's merge is
// quadratic in one piece); cut in parts of 2000 it was linear but 7-10 s a MB.
test('a 4 MB output with no whitespace goes through the live path in linear time, counted exactly', async (t) => {
  const store = await openStore(t);
  const holder = acquireEncoding('o200k'); // the encoding and its counter stay loaded between readings
  let seed = 5;
  const letters = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      s += String.fromCharCode(97 + ((seed >>> 16) % 26));
    }
    return s;
  };
  const base64 = (n: number): string =>
    Buffer.from(letters(Math.ceil((n * 3) / 4)))
      .toString('base64')
      .slice(0, n);
  try {
    for (const input of [letters, base64, (n: number) => '='.repeat(n)]) {
      let turn = 0;
      await assertLinearGrowthAsync(input, 1 << 20, async (text) => {
        // A fresh tokenizer each time: its cache must not answer for the counter.
        const r = await new ToolOutputStore(store, createTokenizer('o200k')).save({
          session: 'big',
          turn: ++turn,
          tool: 'cat',
          output: streamed(text, 64 * 1024),
        });
        assert.equal(r.tokensExact, true);
        assert.ok(r.tokens > 0);
      });
    }
  } finally {
    holder.release();
  }
});
