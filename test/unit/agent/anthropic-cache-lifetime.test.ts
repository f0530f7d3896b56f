// The live estimate of Anthropic's cache: an entry lives 5 minutes after the last request that used it.
// A call sent after a longer pause (the person was away) reads nothing: the estimate the meter shows before
// the answer, and the bill of a call an Anthropic-compatible server reports no usage for, say so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { ANTHROPIC_CACHE_TTL_MS } from '../../../src/core/cost/anthropic-cache';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { createTokenizer } from '../../../src/core/tokens';

async function pausedCalls(pauseMs: number): Promise<Extract<AgentEvent, { type: 'call-finished' }>['record'][]> {
  const model = 'claude-sonnet-4-5';
  const { money, ...prices } = resolvePricing({
    model,
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  let now = Date.UTC(2026, 0, 1, 10);
  const provider = {
    id: 'anthropic',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      // A server that reports no usage: the bill is our estimate.
      yield { type: 'text-delta', text: 'answer' };
    },
  } as ChatProvider;
  const agent = new AgentSession({
    provider,
    model,
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent. '.repeat(300),
    strategy: 'raw',
    prices,
    ...(money ? { money } : {}),
    clock: { now: () => now },
    sleep: () => Promise.resolve(),
  });
  const records: Extract<AgentEvent, { type: 'call-finished' }>['record'][] = [];
  agent.on((e) => {
    if (e.type === 'call-finished') records.push(e.record);
  });
  await agent.send('Fix the build.');
  now += pauseMs;
  await agent.send('Go on.');
  return records;
}

test('Anthropic live estimate: within 5 minutes the next call reads the cache, after a longer pause it reads nothing', async () => {
  const [, within] = await pausedCalls(ANTHROPIC_CACHE_TTL_MS);
  assert.ok(within!.cachedTokens > 1024, `cached ${within!.cachedTokens}`);
  const [, after] = await pausedCalls(ANTHROPIC_CACHE_TTL_MS + 1);
  assert.equal(after!.cachedTokens, 0);
  assert.equal(after!.cacheWriteTokens, after!.tokensSent);
  // Written again at 1.25 where it was read at 0.1.
  assert.ok(after!.cost > within!.cost);
});
