import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createSlidingWindowStrategy } from '../../../src/core/strategies/sliding-window';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { conversation, turnsArb, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const size = (ms: { role: string; content: string }[]) =>
  ms.reduce((n, m) => n + tokenizer.countMessage(m as Parameters<typeof tokenizer.countMessage>[0]), 0);

test('below 75 % of the budget nothing changes; at 75 % it keeps 3 primers, a summary and recents', async () => {
  const full = conversation(Array.from({ length: 40 }, () => ({ action: 5, observations: [20] })));
  const budget = 1000;
  const s = createSlidingWindowStrategy(
    { tokenizer, summarizer: createStandInSummarizer(tokenizer, 40) },
    { contextWindow: budget, summaryTokens: 40 },
  );
  let first: Awaited<ReturnType<typeof s.build>> | undefined;
  for (let i = 1; i <= full.length; i++) {
    if (full[i]?.role !== 'assistant') continue;
    const history = full.slice(0, i);
    const r = await s.build(history);
    if (r.summaries.length === 0 && !first) {
      if (size(history) < 0.75 * budget) assert.deepEqual(r.messages, history);
      continue;
    }
    if (!first) {
      first = r;
      assert.ok(size(history) >= 0.75 * budget);
      assert.deepEqual(r.messages.slice(0, 3), history.slice(0, 3));
      assert.match(r.messages[3]!.content, /^Previous context summary: \[stand-in #1/);
      assert.ok(r.messages.length - 4 <= 20);
      assert.ok(size(r.messages) <= 0.375 * budget);
      assert.deepEqual(r.messages.slice(4), history.slice(history.length - (r.messages.length - 4)));
    }
  }
  assert.ok(first, 'compression happened');
});

const slidingWindow = (contextWindow: number) =>
  createSlidingWindowStrategy(
    { tokenizer, summarizer: createStandInSummarizer(tokenizer, 30) },
    { contextWindow, summaryTokens: 30 },
  );

/** Each context the strategy builds over a conversation, one per call (before each assistant message). */
async function* builds(spec: Parameters<typeof conversation>[0], contextWindow: number) {
  const full = conversation(spec);
  const s = slidingWindow(contextWindow);
  for (let i = 0; i < full.length; i++)
    if (full[i]!.role === 'assistant') yield { history: full.slice(0, i), r: await s.build(full.slice(0, i)) };
}

test('property: sliding-window stays under its budget and never sends more than raw', async () => {
  await fc.assert(
    fc.asyncProperty(turnsArb(1, 80, 40), fc.integer({ min: 600, max: 3000 }), async (spec, budget) => {
      for await (const { history, r } of builds(spec, budget)) {
        assert.ok(size(r.messages) < 0.75 * budget, `${size(r.messages)} >= 75 % of ${budget}`);
        assert.ok(size(r.messages) <= size(history));
        assert.deepEqual(unpairedResults(r.messages), []);
      }
    }),
    { numRuns: 60 },
  );
});

/** Every tool result answers a call of the nearest assistant message before it (providers reject others). */
function unpairedResults(messages: readonly { role: string; toolCallId?: string; toolCalls?: { id: string }[] }[]) {
  let open = new Set<string>();
  const bad: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') open = new Set((m.toolCalls ?? []).map((c) => c.id));
    else if (m.role === 'tool' && !open.has(m.toolCallId!)) bad.push(m.toolCallId!);
  }
  return bad;
}

test('a last turn whose results alone are over the target is folded or kept with its call, never split', async () => {
  const spec = [
    ...Array.from({ length: 12 }, () => ({ action: 5, observations: [30], tool: true })),
    { action: 5, observations: [400], tool: true },
  ];
  const history = conversation(spec);
  const s = slidingWindow(1000);
  const r = await s.build(history);
  assert.equal(r.summaries.length, 1);
  assert.deepEqual(unpairedResults(r.messages), []);
  assert.deepEqual(r.messages.slice(-2), history.slice(-2), 'the last call and its result are sent together');
  const next = [
    ...history,
    { role: 'assistant' as const, content: 'think', toolCalls: [{ id: 'z', name: 'bash', arguments: '{}' }] },
    { role: 'tool' as const, content: 'ok', toolCallId: 'z', name: 'bash' },
  ];
  assert.deepEqual(unpairedResults((await s.build(next)).messages), []);
});

test('property: with outputs of any size every result sent follows its call', async () => {
  await fc.assert(
    fc.asyncProperty(turnsArb(1, 60, 500), fc.integer({ min: 600, max: 3000 }), async (spec, budget) => {
      for await (const { r } of builds(spec, budget)) assert.deepEqual(unpairedResults(r.messages), []);
    }),
    { numRuns: 60 },
  );
});

test('summarize: false (the summarizer just failed) sends the history as it is, past 75 % too', async () => {
  const full = conversation(Array.from({ length: 40 }, () => ({ action: 5, observations: [20] })));
  const s = slidingWindow(1000);
  assert.ok(size(full) >= 0.75 * 1000);
  const r = await s.build(full, { summarize: false });
  assert.deepEqual(r.messages, full);
  assert.deepEqual([r.summaries.length, r.summarizedTurns], [0, 0]);
  // Asked again on a later call, it folds as it would have.
  assert.equal((await s.build(full)).summaries.length, 1);
});
