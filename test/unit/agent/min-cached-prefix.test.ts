// The shortest prefix a provider caches is the model's (Opus 4.5 / 4.6 and Haiku 4.5: 4,096 tokens), and
// once the provider reports a call's usage its cache figures are the ones the record and the meter show.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatProvider, ChatStreamEvent, ProviderUsage } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { mergePrices } from '../../../src/core/cost/prices';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { twoPricedCalls } from './helpers';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';

/** Two calls of a conversation whose first ~1,800 tokens are shared; `usage` is what the provider reports. */
async function twoCalls(
  model: string,
  usage: ProviderUsage | undefined,
  minCachedTokens?: number,
): Promise<AgentEvent[]> {
  let n = 0;
  const provider = {
    id: 'anthropic',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      n++;
      if (usage) yield { type: 'usage', usage };
      yield { type: 'text-delta', text: `answer ${n}` };
    },
  } as ChatProvider;
  return twoPricedCalls(model, provider, minCachedTokens !== undefined ? { minCachedTokens } : {});
}

const prepared = (events: AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'context-prepared' }> => e.type === 'context-prepared');
const records = (events: AgentEvent[]) =>
  events
    .filter((e): e is Extract<AgentEvent, { type: 'call-finished' }> => e.type === 'call-finished')
    .map((e) => e.record);

test('the live estimate caches no prefix under the model’s minimum: 4,096 tokens for Opus 4.5, 1,024 for Sonnet 4.5', async () => {
  const opus = prepared(await twoCalls('claude-opus-4-5', undefined));
  const shared = prepared(await twoCalls('claude-sonnet-4-5', undefined))[1]!.cachedTokens;
  assert.ok(shared > 1024 && shared < 4096, `the shared prefix is ${shared} tokens`);
  assert.equal(opus[1]!.cachedTokens, 0, 'under 4,096 tokens: Opus 4.5 caches none of it');
  assert.equal(opus[1]!.inputCost, opus[1]!.tokensSent * 1.25, 'all of it written');
  // The option still overrides the model's minimum (replay's --min-cached-prefix does the same).
  assert.equal(prepared(await twoCalls('claude-opus-4-5', undefined, 1024))[1]!.cachedTokens, shared);
  for (const model of ['claude-haiku-4-5', 'claude-opus-4-6'])
    assert.equal(prepared(await twoCalls(model, undefined))[1]!.cachedTokens, 0, model);
  assert.equal(
    resolvePricing({ model: 'claude-3-5-haiku', provider: 'anthropic', cachedPrice: 0.1, cacheWritePrice: null })
      .minCachedTokens,
    2048,
  );
});

test('once the provider reports the call, the record and the meter show its cache figures, not the estimate', async () => {
  // Sonnet: our estimate says the ~1,800 shared tokens are cached; the provider says it read and wrote none.
  const events = await twoCalls('claude-sonnet-4-5', {
    inputTokens: 2700,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 5,
  });
  assert.ok(prepared(events)[1]!.cachedTokens > 1024, 'the estimate before the answer');
  const r = records(events)[1]!;
  assert.equal(r.cachedTokens, 0);
  assert.equal(r.cacheWriteTokens, 0);
  const model = new ChatModel(emptyChat('s', 'raw', 200_000, false));
  for (const e of events) model.event(e);
  assert.equal(model.snapshot.meter.cachedTokens, 0, 'the meter’s Cached figure');
  assert.equal(model.snapshot.meter.totals?.cachedTokens, 0);
  // Reads it did report are the figures; writes it left out are what it did not read.
  const read = records(
    await twoCalls('claude-sonnet-4-5', { inputTokens: 2700, cachedTokens: 1500, outputTokens: 5 }),
  )[1]!;
  assert.equal(read.cachedTokens, 1500);
  assert.equal(read.cacheWriteTokens, 1200);
  // No usage: our estimate stays.
  const estimated = records(await twoCalls('claude-sonnet-4-5', undefined))[1]!;
  assert.ok(estimated.cachedTokens > 1024);
  assert.equal(estimated.cacheWriteTokens, estimated.tokensSent - estimated.cachedTokens);
});

test('a price setting may say the model’s shortest cached prefix; a bad one is refused', () => {
  assert.equal(
    mergePrices({ m: { input: 1, cachedInput: 0.1, output: 4, minCachedTokens: 2048 } }).m!.minCachedTokens,
    2048,
  );
  assert.throws(
    () => mergePrices({ m: { input: 1, cachedInput: 0.1, output: 4, minCachedTokens: 1.5 } }),
    /"m" has minCachedTokens = 1.5/,
  );
});
