// The live estimate of Anthropic's cache: an entry lives 5 minutes after the last request that used it.
// A call sent after a longer pause (the person was away) reads nothing: the estimate the meter shows before
// the answer, and the bill of a call an Anthropic-compatible server reports no usage for, say so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { ANTHROPIC_CACHE_TTL_MS } from '../../../src/core/cost/anthropic-cache';
import { twoPricedCalls } from './helpers';

async function pausedCalls(pauseMs: number): Promise<Extract<AgentEvent, { type: 'call-finished' }>['record'][]> {
  let now = Date.UTC(2026, 0, 1, 10);
  const provider = {
    id: 'anthropic',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      // A server that reports no usage: the bill is our estimate.
      yield { type: 'text-delta', text: 'answer' };
    },
  } as ChatProvider;
  const events = await twoPricedCalls('claude-sonnet-4-5', provider, { clock: { now: () => now } }, () => {
    now += pauseMs;
  });
  return events.flatMap((e) => (e.type === 'call-finished' ? [e.record] : []));
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
