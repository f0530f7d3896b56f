import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { billOutput, billRequest } from '../../../src/core/cost/cost-model';
import { messageCounter } from '../../../src/core/cost/message-tokens';
import { commonPrefixLength, sameMessage } from '../../../src/core/cost/prefix-cache';
import { MESSAGE_OVERHEAD, wordTokenizer } from '../strategies/helpers';

const count = messageCounter(wordTokenizer());
const msg = (role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({
  role,
  content,
  ...extra,
});

test('the cached prefix is the longest run of identical whole messages', () => {
  const a = [msg('system', 'sys'), msg('user', 'task'), msg('assistant', 'one two')];
  assert.equal(commonPrefixLength(a, [...a, msg('user', 'obs')]), 3);
  assert.equal(commonPrefixLength(a, [a[0]!, msg('user', 'task!'), a[2]!]), 1);
  assert.equal(commonPrefixLength([], a), 0);
  // storedAt is ours, never sent: it does not break the cache.
  assert.ok(sameMessage(msg('tool', 'x', { storedAt: 'a' }), msg('tool', 'x')));
  assert.ok(!sameMessage(msg('tool', 'x', { toolCallId: '1' }), msg('tool', 'x', { toolCallId: '2' })));
  assert.ok(
    !sameMessage(
      msg('assistant', '', { toolCalls: [{ id: '1', name: 'bash', arguments: '{}' }] }),
      msg('assistant', '', { toolCalls: [{ id: '1', name: 'bash', arguments: '{"a":1}' }] }),
    ),
  );
});

test('a call is billed cached prefix x cached price + the rest x write price', () => {
  const first = [msg('system', 'a b c'), msg('user', 'd e')]; // 6 + 5 tokens
  const second = [...first, msg('assistant', 'f'), msg('user', 'g h i j')]; // + 4 + 7
  const prices = { cachedPrice: 0.1, cacheWritePrice: 1.25 };
  const b1 = billRequest(undefined, first, count, prices);
  assert.deepEqual(b1, { inputTokens: 11, cachedTokens: 0, cacheWriteTokens: 11, cachedMessages: 0, cost: 11 * 1.25 });
  const b2 = billRequest(first, second, count, prices);
  assert.equal(b2.inputTokens, 22);
  assert.equal(b2.cachedTokens, 11);
  assert.equal(b2.cachedMessages, 2);
  assert.ok(Math.abs(b2.cost - (11 * 0.1 + 11 * 1.25)) < 1e-9);
  assert.equal(MESSAGE_OVERHEAD, 3);
});

test('output is billed only when asked', () => {
  assert.equal(billOutput(100, false, 4), 0);
  assert.equal(billOutput(100, true, 4), 400);
});

const messageArb = fc.record({
  role: fc.constantFrom<Message['role']>('system', 'user', 'assistant', 'tool'),
  content: fc.constantFrom('a', 'a b', 'c d e', 'f'),
});

test('property: cached tokens never exceed input tokens, and cost lies between the cached and the write price', () => {
  fc.assert(
    fc.property(
      fc.array(messageArb, { maxLength: 12 }),
      fc.array(messageArb, { maxLength: 12 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 1, max: 2, noNaN: true }),
      (prev, next, cachedPrice, cacheWritePrice) => {
        const b = billRequest(prev, next, count, { cachedPrice, cacheWritePrice });
        assert.ok(b.cachedTokens <= b.inputTokens);
        assert.equal(b.cachedTokens + b.cacheWriteTokens, b.inputTokens);
        assert.ok(b.cost >= b.inputTokens * cachedPrice - 1e-9);
        assert.ok(b.cost <= b.inputTokens * cacheWritePrice + 1e-9);
        const lcp = commonPrefixLength(prev, next);
        assert.ok(next.slice(0, lcp).every((m, i) => sameMessage(m, prev[i]!)));
        if (lcp < Math.min(prev.length, next.length)) assert.ok(!sameMessage(prev[lcp]!, next[lcp]!));
      },
    ),
  );
});
