// A call's cost from the usage an OpenAI-compatible server reports, against the providers' published
// rules (US$ per million tokens).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolvePricing } from '../../../src/core/cost/pricing';
import type { CallRecord } from '../../../src/core/agent/session-state';
import { recomputedCost } from '../../../src/core/agent/call-log';
import { reportedInput } from '../../../src/core/agent/accounting';
import { harness } from './helpers';

async function billOne(
  model: string,
  usage: Record<string, unknown>,
  userPrices: Record<string, unknown> = {},
): Promise<{ record: CallRecord; estimate: { inputCost: number; tokensSent: number; cachedTokens: number } }> {
  const { money, ...prices } = resolvePricing({
    model,
    provider: 'openai-compatible',
    userPrices,
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const h = await harness([{ reply: { text: 'Done.' }, rawUsage: usage }], {
    model,
    prices,
    strategyOptions: { cachedPrice: prices.cachedPrice, cacheWritePrice: prices.cacheWritePrice },
    ...(money ? { money } : {}),
  });
  try {
    assert.equal(await h.agent.send('hello'), 'completed');
    const record = h.agent.state().calls[0]!;
    const prepared = h.events.find((e) => e.type === 'context-prepared');
    assert.ok(prepared?.type === 'context-prepared');
    // The record can be billed again from its own figures to the same cost.
    assert.ok(Math.abs(recomputedCost(record) - record.cost) < 1e-9, `${recomputedCost(record)} vs ${record.cost}`);
    return { record, estimate: prepared };
  } finally {
    await h.close();
  }
}

const near = (actual: number | undefined, expected: number, what: string): void =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${what}: ${actual} vs ${expected}`);

test('Claude through an OpenAI-compatible endpoint: nothing is written to the cache unless the server says so', async () => {
  // The endpoint sends no cache_control, so Anthropic bills the uncached prompt at 1x ($3), not as writes.
  const unreported = await billOne('anthropic/claude-sonnet-4.5', {
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    prompt_tokens_details: { cached_tokens: 0 },
  });
  near(unreported.record.costUsd, (20000 * 3 + 100 * 15) / 1e6, 'no write count');
  // Our own estimate before the answer: the first call has nothing cached, and nothing is written either.
  near(unreported.estimate.inputCost, unreported.estimate.tokensSent, 'estimate');
  const openRouter = await billOne('anthropic/claude-sonnet-4.5', {
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
  });
  near(openRouter.record.costUsd, (20000 * 3 + 100 * 15) / 1e6, 'OpenRouter, 0 written');
  // A proxy that adds breakpoints itself reports its writes: those are billed at the write price ($3.75).
  const written = await billOne('anthropic/claude-sonnet-4.5', {
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    cache_read_input_tokens: 15000,
    cache_creation_input_tokens: 4000,
  });
  near(written.record.costUsd, (15000 * 0.3 + 4000 * 3.75 + 1000 * 3 + 100 * 15) / 1e6, 'LiteLLM, writes reported');
});

test('DeepSeek: the cache hits it reports in its own field are billed at the cached price', async () => {
  const { record } = await billOne(
    'deepseek-chat',
    {
      prompt_tokens: 20000,
      completion_tokens: 100,
      total_tokens: 20100,
      prompt_cache_hit_tokens: 18000,
      prompt_cache_miss_tokens: 2000,
    },
    { 'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 } },
  );
  assert.equal(record.billedBy, 'provider');
  near(record.costUsd, (2000 * 0.28 + 18000 * 0.028 + 100 * 0.42) / 1e6, 'DeepSeek');
});

test('a server that reports no cached figure: the prompt is split by our own cached share, and the call says it is an estimate', async () => {
  const { money, ...prices } = resolvePricing({
    model: 'gpt-5',
    provider: 'openai-compatible',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const usage = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 });
  const h = await harness(
    [
      { reply: { toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] }, rawUsage: usage(3000) },
      { reply: { text: 'Done.' }, rawUsage: usage(3600) },
    ],
    {
      model: 'gpt-5',
      // A prompt long enough that the second call's shared prefix is over the 1,024 tokens providers cache.
      systemPrompt: `You are a coding agent. ${'Keep answers short and exact. '.repeat(300)}`,
      prices,
      strategyOptions: { cachedPrice: prices.cachedPrice, cacheWritePrice: prices.cacheWritePrice },
      money: money!,
    },
  );
  try {
    assert.equal(await h.agent.send('hello'), 'completed');
    const [first, second] = h.agent.state().calls;
    // Nothing was expected in the cache on the first call: the provider's figures, 0 cached.
    assert.equal(first!.billedBy, 'provider');
    near(first!.cost, 3000 + 10 * 8, 'first call');
    assert.ok(second!.cachedTokens >= 1024, String(second!.cachedTokens));
    assert.equal(second!.billedBy, 'estimate');
    assert.equal(second!.usage?.cachedTokens, undefined, 'the record does not claim a figure nobody reported');
    const cached = Math.round((3600 * second!.cachedTokens) / second!.tokensSent);
    near(second!.cost, cached * 0.1 + (3600 - cached) + 10 * 8, 'second call');
    near(recomputedCost(second!), second!.cost, 'billed again from the record');
  } finally {
    await h.close();
  }
});

test('the cached share is estimated only for a prompt size the provider reported', () => {
  const ours = { tokensSent: 4000, cachedTokens: 3000 };
  assert.deepEqual(reportedInput({ inputTokens: 2000 }, ours), {
    input: { input: 2000, cached: 1500 },
    estimated: true,
  });
  assert.deepEqual(reportedInput({ inputTokens: 2000, cachedTokens: 0 }, ours), {
    input: { input: 2000, cached: 0 },
    estimated: false,
  });
  // Only output reported (a call that failed mid-stream): no input figure to split.
  assert.deepEqual(reportedInput({ outputTokens: 5 }, ours), { input: { input: 0, cached: 0 }, estimated: false });
});
