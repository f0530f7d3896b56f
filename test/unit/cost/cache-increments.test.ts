// OpenAI serves a cached prefix from 1,024 tokens on in steps of 128 (1,024, 1,152, 1,280, ...): the rest
// of a shared prefix is billed uncached. The live estimate and replay both bill OpenAI's models so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { billRequest, cachedPrefixTokens } from '../../../src/core/cost/cost-model';
import { cacheIncrementOf, OPENAI_CACHE_INCREMENT } from '../../../src/core/cost/cache-increment';
import { messageCounter } from '../../../src/core/cost/message-tokens';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { twoPricedCalls } from '../agent/helpers';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import type { Trajectory } from '../../../src/core/trajectories';
import { wordTokenizer } from '../strategies/helpers';

const tokenizer = wordTokenizer();
const count = messageCounter(tokenizer);
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

test('a shared prefix is cached from the minimum on in whole increments; the prompt size is unchanged', () => {
  assert.equal(cachedPrefixTokens(1500, 1024, 128), 1408);
  assert.equal(cachedPrefixTokens(1024, 1024, 128), 1024);
  assert.equal(cachedPrefixTokens(1023, 1024, 128), 0);
  assert.equal(cachedPrefixTokens(1500, 1024), 1500, 'no increment: all of it');
  const first: Message[] = [
    { role: 'system', content: words(1400, 's') },
    { role: 'user', content: 'question' },
  ];
  const next: Message[] = [...first, { role: 'assistant', content: 'answer' }, { role: 'user', content: 'more' }];
  const plain = billRequest(first, next, count, { cachedPrice: 0.1, cacheWritePrice: 1, minCachedTokens: 1024 });
  const stepped = billRequest(first, next, count, {
    cachedPrice: 0.1,
    cacheWritePrice: 1,
    minCachedTokens: 1024,
    cacheIncrement: 128,
  });
  assert.equal(stepped.inputTokens, plain.inputTokens);
  assert.equal((stepped.cachedTokens - 1024) % 128, 0);
  assert.ok(plain.cachedTokens - stepped.cachedTokens < 128 && stepped.cachedTokens > 1024);
  assert.equal(stepped.cacheWriteTokens, stepped.inputTokens - stepped.cachedTokens);
  assert.ok(Math.abs(stepped.cost - (stepped.cachedTokens * 0.1 + stepped.cacheWriteTokens)) < 1e-9);
});

test('property: cached tokens are 0 or the minimum plus whole increments, never more than shared, within one increment', () => {
  fc.assert(
    fc.property(fc.nat(1_000_000), fc.nat(5000), fc.integer({ min: 1, max: 512 }), (shared, min, inc) => {
      const cached = cachedPrefixTokens(shared, min, inc);
      if (shared < min) return cached === 0;
      return cached <= shared && shared - cached < inc && (cached - min) % inc === 0;
    }),
  );
});

test('OpenAI models step by 128; Claude and the open models do not', () => {
  for (const m of ['gpt-4.1', 'gpt-4o-mini', 'openai/gpt-5', 'o3', 'o4-mini', 'chatgpt-4o-latest', 'gpt-5.1-codex'])
    assert.equal(cacheIncrementOf(m), OPENAI_CACHE_INCREMENT, m);
  for (const m of [
    'claude-sonnet-4-5',
    'llama-3.1-70b',
    'deepseek-chat',
    'gemini-2.5-pro',
    'qwen3-coder',
    'gpt-oss-120b',
  ])
    assert.equal(cacheIncrementOf(m), undefined, m);
  const p = (model: string, provider: string) =>
    resolvePricing({ model, provider, cachedPrice: 0.1, cacheWritePrice: null }).cacheIncrement;
  assert.equal(p('gpt-4.1', 'openai'), 128);
  assert.equal(p('gpt-9-unknown', 'openai'), 128, 'a model whose price is unknown still steps');
  assert.equal(p('claude-sonnet-4-5', 'anthropic'), undefined);
});

test('the live estimate of an OpenAI model caches whole increments of its shared prefix', async () => {
  const provider = {
    id: 'openai',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      yield { type: 'text-delta', text: 'answer' };
    },
  } as ChatProvider;
  const events = await twoPricedCalls('gpt-4.1', provider);
  const second = events.filter((e) => e.type === 'context-prepared')[1] as Extract<
    AgentEvent,
    { type: 'context-prepared' }
  >;
  assert.ok(second.cachedTokens > 1024, `cached ${second.cachedTokens}`);
  assert.equal((second.cachedTokens - 1024) % 128, 0, `cached ${second.cachedTokens}`);
});

test('replay bills an OpenAI model’s log in whole increments, another model’s whole prefix', async () => {
  const messages: Message[] = [
    { role: 'system', content: words(1400, 's') },
    { role: 'user', content: 'question' },
    { role: 'assistant', content: 'answer' },
    { role: 'user', content: 'more' },
    { role: 'assistant', content: 'done' },
  ];
  const log = (model: string): Trajectory => ({ id: model, source: 'x', format: 'openai-chat', model, messages });
  const options = { ...DEFAULT_REPLAY_OPTIONS, cacheWritePrice: 1 };
  const gpt = await replayTrajectory(log('gpt-4o'), 'raw', options, tokenizer);
  const llama = await replayTrajectory(log('llama-3.1-70b'), 'raw', options, tokenizer);
  const shared = messages.slice(0, 2).reduce((n, m) => n + count(m), 0);
  assert.equal(llama.calls[1]!.cachedTokens, shared);
  assert.equal(gpt.calls[1]!.cachedTokens, 1024 + Math.floor((shared - 1024) / 128) * 128);
  assert.equal(gpt.calls[1]!.contextTokens, llama.calls[1]!.contextTokens);
});
