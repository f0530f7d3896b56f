// Long-context pricing: over the tier's threshold a request is billed whole at the tier's prices, in
// the live session's records (from the provider's usage) as in a record billed again from its figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent, ProviderUsage } from '../../../src/core/agent/provider';
import type { CallRecord } from '../../../src/core/agent/session-state';
import { parseCallRecord, recomputedCost } from '../../../src/core/agent/call-log';
import { pricesAt } from '../../../src/core/cost/long-context';
import { mergePrices } from '../../../src/core/cost/prices';
import { inputUnits, resolvePricing } from '../../../src/core/cost/pricing';
import { createTokenizer } from '../../../src/core/tokens';

/** One call whose provider reports `usage`: its record. */
async function billedCall(model: string, provider: string, usage: ProviderUsage): Promise<CallRecord> {
  const pricing = resolvePricing({
    model,
    provider,
    cachedPrice: 0.1,
    // OpenRouter is sent no cache_control: nothing is written to a cache, so no write premium.
    cacheWritePrice: provider === 'anthropic' ? null : 1,
  });
  const { money, ...prices } = pricing;
  const fake: ChatProvider = {
    id: provider,
    async *chat(): AsyncIterable<ChatStreamEvent> {
      yield { type: 'usage', usage };
      yield { type: 'text-delta', text: 'done' };
    },
  } as ChatProvider;
  const agent = new AgentSession({
    provider: fake,
    model,
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'sys',
    strategy: 'raw',
    prices,
    ...(money ? { money } : {}),
    sleep: () => Promise.resolve(),
  });
  const records: CallRecord[] = [];
  agent.on((e) => e.type === 'call-finished' && records.push(e.record));
  await agent.send('go');
  assert.equal(records.length, 1);
  return records[0]!;
}

const close = (a: number | undefined, b: number): boolean => a !== undefined && Math.abs(a - b) < 1e-9;

test('Sonnet 4.5 over 200k prompt tokens: the whole request at $6 input / $22.50 output', async () => {
  const long = await billedCall('anthropic/claude-sonnet-4.5', 'openai-compatible', {
    inputTokens: 300_000,
    cachedTokens: 0,
    outputTokens: 1000,
  });
  assert.ok(close(long.costUsd, (300_000 * 6 + 1000 * 22.5) / 1e6), `costUsd ${long.costUsd}, not 1.8225`);
  // At the threshold itself the standard price holds.
  const at = await billedCall('anthropic/claude-sonnet-4.5', 'openai-compatible', {
    inputTokens: 200_000,
    cachedTokens: 0,
    outputTokens: 1000,
  });
  assert.ok(close(at.costUsd, (200_000 * 3 + 1000 * 15) / 1e6), `costUsd ${at.costUsd}`);
});

test('cache reads and writes of a long-context request cost their multiples of the tier price', async () => {
  const r = await billedCall('claude-sonnet-4-5-20250929', 'anthropic', {
    inputTokens: 250_000,
    cachedTokens: 240_000,
    cacheWriteTokens: 9000,
    outputTokens: 1000,
  });
  const expected = (1000 * 6 + 240_000 * 0.6 + 9000 * 7.5 + 1000 * 22.5) / 1e6;
  assert.ok(close(r.costUsd, expected), `costUsd ${r.costUsd}, not ${expected}`);
  // The record says which prices billed it, so it is billed again alike (a history file, replay).
  const back = parseCallRecord(JSON.parse(JSON.stringify(r)))!;
  assert.ok(Math.abs(recomputedCost(back) - r.cost) < 1e-6, `${recomputedCost(back)} vs ${r.cost}`);
  // Models without a tier (Opus 4.6's 1M window is priced flat) stay at their price.
  const opus = await billedCall('claude-opus-4-6', 'anthropic', { inputTokens: 300_000, outputTokens: 1000 });
  assert.ok(close(opus.costUsd, (300_000 * 6.25 + 1000 * 25) / 1e6), `costUsd ${opus.costUsd}`);
});

test('a tier bills nothing differently up to its threshold, and never less above it', () => {
  const p = resolvePricing({
    model: 'claude-sonnet-4',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  assert.deepEqual(p.longContext, { above: 200_000, inputPrice: 2, outputPrice: 7.5 });
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2_000_000 }),
      fc.integer({ min: 0, max: 2_000_000 }),
      fc.integer({ min: 0, max: 2_000_000 }),
      (input, cached, written) => {
        const b = { input, cached: Math.min(cached, input), cacheWrite: written };
        const standard = inputUnits(b, p);
        const billed = inputUnits(b, pricesAt(p, input));
        if (input <= 200_000) return billed === standard;
        return Math.abs(billed - 2 * standard) < 1e-6 * Math.max(1, standard);
      },
    ),
  );
});

test('a price setting may carry a long-context tier; a bad one is refused naming the field', () => {
  const t = mergePrices({
    m: { input: 1, cachedInput: 0.1, output: 4, longContext: { above: 1000, input: 2, output: 6 } },
  });
  assert.deepEqual(t.m!.longContext, { above: 1000, input: 2, output: 6 });
  assert.throws(
    () =>
      mergePrices({ m: { input: 1, cachedInput: 0.1, output: 4, longContext: { above: -1, input: 2, output: 6 } } }),
    /"m" has longContext\.above = -1/,
  );
  assert.throws(
    () =>
      mergePrices({ m: { input: 1, cachedInput: 0.1, output: 4, longContext: { above: 10, input: 0, output: 6 } } }),
    /longContext\.input = 0/,
  );
});
