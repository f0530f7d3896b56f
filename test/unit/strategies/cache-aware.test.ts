import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitTurns, type Message } from '../../../src/core/messages';
import { createCacheAwareStrategy } from '../../../src/core/strategies/cache-aware';
import { createMaskingStrategy } from '../../../src/core/strategies/masking';
import { maskMessage } from '../../../src/core/strategies/placeholder';
import { conversation, turnsArb, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const size = (ms: readonly Message[]) => ms.reduce((n, m) => n + tokenizer.countMessage(m), 0);
const options = { window: 10, cachedPrice: 0.1, cacheWritePrice: 1, contextWindow: 1_000_000 };

async function callByCall(full: Message[], build: (h: Message[]) => Promise<Message[]>): Promise<Message[][]> {
  const out: Message[][] = [];
  for (let i = 0; i < full.length; i++) if (full[i]!.role === 'assistant') out.push(await build(full.slice(0, i)));
  return out;
}

test('with no prompt cache (cached price 1) it is plain masking, call for call', async () => {
  const full = conversation(Array.from({ length: 40 }, (_, k) => ({ action: 4, observations: [30 + k], lines: 3 })));
  const ca = createCacheAwareStrategy({ tokenizer }, { ...options, cachedPrice: 1 });
  const m = createMaskingStrategy({ tokenizer }, { window: 10, polling: 1 });
  const a = await callByCall(full, async (h) => (await ca.build(h)).messages);
  const b = await callByCall(full, async (h) => (await m.build(h)).messages);
  assert.deepEqual(a, b);
});

test('with a free cache (cached price 0) it never masks while the window allows', async () => {
  const full = conversation(Array.from({ length: 40 }, () => ({ action: 4, observations: [30] })));
  const ca = createCacheAwareStrategy({ tokenizer }, { ...options, cachedPrice: 0 });
  const calls = await callByCall(full, async (h) => (await ca.build(h)).messages);
  calls.forEach((c, k) =>
    assert.equal(
      size(c),
      size(
        full.slice(
          0,
          full.findIndex((m) => m.content.startsWith(`act${k} `)),
        ),
      ),
    ),
  );
});

test('at 0.1 it holds the boundary, then moves it past the last M turns once the regret pays for the break', async () => {
  const full = conversation(Array.from({ length: 120 }, () => ({ action: 4, observations: [200] })));
  const ca = createCacheAwareStrategy({ tokenizer }, options);
  const boundaries: number[] = [];
  for (let i = 0; i < full.length; i++) {
    if (full[i]!.role !== 'assistant') continue;
    const r = await ca.build(full.slice(0, i));
    boundaries.push(r.masked.length);
  }
  const moves = boundaries.filter((b, k) => k > 0 && b !== boundaries[k - 1]);
  assert.ok(moves.length >= 2, 'moves more than once');
  assert.ok(moves.length < boundaries.length / 5, `moves rarely (${moves.length} of ${boundaries.length} calls)`);
  // Every move masks everything older than the last 10 turns.
  boundaries.forEach((b, k) => {
    if (k > 0 && b !== boundaries[k - 1]) assert.equal(b, k - 10);
  });
  // The boundary never goes back.
  boundaries.forEach((b, k) => assert.ok(k === 0 || b >= boundaries[k - 1]!));
});

test('property: never exceeds the context window (tool definitions included) when a single turn fits, never sends more than raw', async () => {
  await fc.assert(
    fc.asyncProperty(
      turnsArb(1, 60, 80),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom(0, 0.1, 0.25, 0.5, 1),
      fc.integer({ min: 100, max: 4000 }),
      fc.integer({ min: 0, max: 600 }),
      async (spec, window, cachedPrice, contextWindow, reservedTokens) => {
        const full = conversation(spec);
        const ca = createCacheAwareStrategy(
          { tokenizer },
          { window, cachedPrice, cacheWritePrice: 1.25, contextWindow },
        );
        for (let i = 0; i < full.length; i++) {
          if (full[i]!.role !== 'assistant') continue;
          const history = full.slice(0, i);
          const r = await ca.build(history, { reservedTokens });
          assert.ok(size(r.messages) <= size(history));
          const split = splitTurns(history);
          const last = split.turns.at(-1);
          // "A single turn fits": everything but the last turn's observations masked is within the window.
          const minimal = history.map((m, j) =>
            last &&
            j > split.prefixEnd &&
            !last.observationIndices.includes(j) &&
            m.role !== 'assistant' &&
            tokenizer.countMessage(maskMessage(m)) < tokenizer.countMessage(m)
              ? maskMessage(m)
              : m,
          );
          if (size(minimal) + reservedTokens <= contextWindow)
            assert.ok(
              size(r.messages) + reservedTokens <= contextWindow,
              `${size(r.messages)} + ${reservedTokens} reserved > ${contextWindow}`,
            );
          r.messages.forEach((m, j) => {
            if (m.role === 'assistant' || j < split.prefixEnd) assert.equal(m, history[j]);
          });
        }
      },
    ),
    { numRuns: 80 },
  );
});
