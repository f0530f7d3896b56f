// Anthropic's cache reads only where an earlier request's breakpoint wrote: the estimate (live and replay)
// must not count the whole prefix shared with the previous request as read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Message, Tokenizer } from '../../../src/core/messages';
import { CallAccountant } from '../../../src/core/agent/accounting';
import {
  ANTHROPIC_LOOKBACK_BLOCKS,
  anthropicCacheBill,
  type AnthropicCacheState,
} from '../../../src/core/cost/anthropic-cache';
import { anthropicBlockCount } from '../../../src/core/cost/anthropic-breakpoints';
import { toAnthropicRequest } from '../../../src/core/providers/anthropic-messages';
import { maskMessage } from '../../../src/core/strategies/placeholder';

const sys: Message = { role: 'system', content: 'You are an agent.' };
const task: Message = { role: 'user', content: 'Fix the bug.' };

function turn(t: number, calls: number): Message[] {
  const ids = Array.from({ length: calls }, (_, i) => `t${t}_${i}`);
  return [
    {
      role: 'assistant',
      content: t % 2 === 0 ? `Reading ${calls} files` : '',
      toolCalls: ids.map((id) => ({ id, name: 'read_file', arguments: `{"path":"${id}"}` })),
    },
    ...ids.map((id): Message => ({ role: 'tool', content: `contents of ${id}`, toolCallId: id, name: 'read_file' })),
  ];
}

/** The requests of a session that masks tool results older than `window` turns. */
function maskingSession(sizes: number[], window: number): Message[][] {
  const turns = sizes.map((n, t) => turn(t, n));
  return turns.map((_, i) => {
    const n = i + 1;
    const masked = (m: Message) => (m.role === 'tool' ? maskMessage(m) : m);
    return [sys, task, ...turns.slice(0, n).flatMap((tt, t) => (t < n - window ? tt.map(masked) : tt))];
  });
}

/**
 * The docs' cache, by blocks of the request actually built: each breakpoint writes the prefix ending at its
 * block; a breakpoint reads the longest written prefix ending at it or at most the lookback before it.
 */
function documentedCache() {
  const entries = new Set<string>();
  return (parts: ReturnType<typeof toAnthropicRequest>): { read: number; written: number } => {
    const blocks = [...(parts.system ?? []), ...parts.messages.flatMap((m) => m.content as object[])];
    const plain = blocks.map((b) => JSON.stringify({ ...b, cache_control: undefined }));
    const key = (end: number) => plain.slice(0, end + 1).join('\n');
    const marked = blocks.flatMap((b, i) => ((b as { cache_control?: unknown }).cache_control ? [i] : []));
    assert.ok(marked.length <= 4, 'at most four breakpoints');
    let read = 0;
    for (const p of marked)
      for (let i = p; i >= Math.max(0, p - ANTHROPIC_LOOKBACK_BLOCKS); i--)
        if (entries.has(key(i))) {
          read = Math.max(read, i + 1);
          break;
        }
    for (const p of marked) entries.add(key(p));
    return { read, written: marked[marked.length - 1]! + 1 - read };
  };
}

// One token per block: the estimate's tokens are then the documented cache's blocks.
const perBlock = (m: Message): number => (m.role === 'system' ? 1 : anthropicBlockCount(m));

test('the estimate reads and writes what the documented cache does, for the breakpoints our provider sends', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 14 }), { minLength: 1, maxLength: 9 }),
      fc.integer({ min: 1, max: 3 }),
      (sizes, window) => {
        const cache = documentedCache();
        let sent: { messages: Message[]; breakpoints: number[] } | undefined;
        let state: AnthropicCacheState | undefined;
        for (const messages of maskingSession(sizes, window)) {
          const parts = toAnthropicRequest(messages, sent?.messages, sent?.breakpoints);
          const want = cache(parts);
          const got = anthropicCacheBill(state, messages, perBlock, {
            toolsKey: '',
            toolTokens: 0,
            minCachedTokens: 0,
          });
          assert.deepEqual(got.breakpoints, parts.breakpoints);
          assert.deepEqual({ read: got.cached, written: got.written }, want);
          sent = { messages, breakpoints: parts.breakpoints };
          state = got.next;
        }
      },
    ),
  );
});

test('block counts match the request built', () => {
  for (const m of [...turn(0, 3), ...turn(1, 2), task, { role: 'assistant', content: ' ' } as Message]) {
    const parts = toAnthropicRequest([m.role === 'tool' ? { ...m, toolCallId: 'x' } : m]);
    assert.equal(parts.messages[0]!.content.length, anthropicBlockCount(m), JSON.stringify(m));
  }
});

/** A tokenizer counting one token per character of content. */
const chars: Tokenizer = {
  name: 'chars',
  exact: true,
  count: (t: string) => t.length,
  countMessage: (m: Message) => m.content.length + 1,
} as unknown as Tokenizer;

test('after the mask boundary moves, the live estimate reads only up to where the cache was written', () => {
  const [first, second] = maskingSession([1, 1, 1], 1).slice(1);
  // The first request marks its last message, the second result, which the next request masks: the prefix
  // they share (system, task, first call and its masked result, second call) was never written whole, and
  // the cache holds only the system prompt and the first request whole.
  const count = (m: Message) => chars.countMessage(m);
  const anthropic = new CallAccountant(
    chars,
    { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 5 },
    0,
    'anthropic',
  );
  anthropic.bill(first!, first!, []);
  anthropic.commit(first!);
  const bill = anthropic.bill(second!, second!, []);
  assert.equal(bill.cachedTokens, count(sys), 'read: the system prompt alone');
  assert.equal(bill.inputCost, count(sys) * 0.1 + (bill.tokensSent - count(sys)) * 1.25);

  // The prefix model (other providers) serves the whole shared prefix.
  const prefix = new CallAccountant(chars, { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 5 }, 0);
  prefix.bill(first!, first!, []);
  prefix.commit(first!);
  const shared = second!.slice(0, 5).reduce((n, m) => n + count(m), 0);
  assert.equal(prefix.bill(second!, second!, []).cachedTokens, shared);
  assert.ok(shared > 2 * count(sys), 'the prefix model overstates the read');
});

test('the live estimate goes on reading after a change of prices (carriedTo)', () => {
  const requests = maskingSession([2, 2, 2, 2], 2);
  const prices = { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 5 };
  let a = new CallAccountant(chars, prices, 0, 'anthropic');
  let state: AnthropicCacheState | undefined;
  const count = (m: Message) => chars.countMessage(m);
  for (const [i, r] of requests.entries()) {
    if (i === 2) a = a.carriedTo(chars, { ...prices, cachedPrice: 0.2 });
    const want = anthropicCacheBill(state, r, count, { toolsKey: '', toolTokens: 0, minCachedTokens: 0 });
    assert.equal(a.bill(r, r, []).cachedTokens, want.cached, `request ${i}`);
    a.commit(r);
    state = want.next;
  }
});

test('a prefix under the minimum is neither written nor read; a change of tools reads nothing', () => {
  const [first, second] = maskingSession([1, 1], 2);
  const count = (m: Message) => chars.countMessage(m);
  const c = { toolsKey: 'T', toolTokens: 50, minCachedTokens: 0 };
  const one = anthropicCacheBill(undefined, first!, count, c);
  assert.equal(one.cached, 0);
  const two = anthropicCacheBill(one.next, second!, count, c);
  assert.ok(two.cached > 50, 'tools, system and request 1 read');
  assert.equal(anthropicCacheBill(one.next, second!, count, { ...c, toolsKey: 'U' }).cached, 0);
  const big = { ...c, minCachedTokens: 10_000 };
  const small = anthropicCacheBill(anthropicCacheBill(undefined, first!, count, big).next, second!, count, big);
  assert.deepEqual([small.cached, small.written], [0, 0]);
});
