import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { createStrategy } from '../../../src/core/strategies/registry';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { DEFAULT_STRATEGY_OPTIONS, STRATEGY_NAMES, type StrategyName } from '../../../src/core/strategies/types';
import { conversation, turnsArb, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const size = (ms: readonly Message[]) => ms.reduce((n, m) => n + tokenizer.countMessage(m), 0);

test('every strategy name builds a strategy of that name', () => {
  for (const name of STRATEGY_NAMES) {
    const s = createStrategy(
      name,
      { tokenizer, summarizer: createStandInSummarizer(tokenizer, 10) },
      DEFAULT_STRATEGY_OPTIONS,
    );
    assert.equal(s.name, name);
  }
});

test('bad options and unknown names are refused with a clear error', () => {
  const deps = { tokenizer, summarizer: createStandInSummarizer(tokenizer, 10) };
  assert.throws(
    () => createStrategy('masking', deps, { ...DEFAULT_STRATEGY_OPTIONS, window: 0 }),
    /window must be an integer >= 1/,
  );
  assert.throws(() => createStrategy('masking', deps, { ...DEFAULT_STRATEGY_OPTIONS, polling: 1.5 }), /polling/);
  assert.throws(
    () => createStrategy('cache-aware', deps, { ...DEFAULT_STRATEGY_OPTIONS, cachedPrice: 2 }),
    /cachedPrice/,
  );
  assert.throws(
    () => createStrategy('cache-aware', deps, { ...DEFAULT_STRATEGY_OPTIONS, cachedPrice: Number.NaN }),
    /cachedPrice/,
  );
  assert.throws(
    () => createStrategy('raw', deps, { ...DEFAULT_STRATEGY_OPTIONS, cacheWritePrice: 0.5 }),
    /cacheWritePrice/,
  );
  assert.throws(() => createStrategy('raw', deps, { ...DEFAULT_STRATEGY_OPTIONS, contextWindow: -1 }), /contextWindow/);
  assert.throws(
    () => createStrategy('summary', deps, { ...DEFAULT_STRATEGY_OPTIONS, summaryTokens: 0 }),
    /summaryTokens/,
  );
  assert.throws(
    () => createStrategy('nope' as StrategyName, deps, DEFAULT_STRATEGY_OPTIONS),
    /Unknown strategy "nope"/,
  );
});

test('property: no strategy sends more tokens than raw on any call; actions and the task are never rewritten', async () => {
  await fc.assert(
    fc.asyncProperty(turnsArb(1, 70, 60), fc.constantFrom(...STRATEGY_NAMES), async (spec, name) => {
      const full = conversation(spec);
      // A summary far smaller than 21 turns, as in real use; the window large enough for compression.
      const options = { ...DEFAULT_STRATEGY_OPTIONS, summaryTokens: 20, contextWindow: 2000 };
      const s = createStrategy(name, { tokenizer, summarizer: createStandInSummarizer(tokenizer, 20) }, options);
      for (let i = 0; i < full.length; i++) {
        if (full[i]!.role !== 'assistant') continue;
        const history = full.slice(0, i);
        const r = await s.build(history, { retry: false });
        assert.ok(size(r.messages) <= size(history), `${name}: ${size(r.messages)} > raw ${size(history)}`);
        assert.deepEqual(r.messages.slice(0, 2), history.slice(0, 2));
        const actions = new Set(history.filter((m) => m.role === 'assistant'));
        for (const m of r.messages)
          if (m.role === 'assistant') assert.ok(actions.has(m), 'assistant messages are sent unchanged');
      }
    }),
    { numRuns: 70 },
  );
});
