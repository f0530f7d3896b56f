import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { createTokenizer } from '../../../src/core/tokens';
import { callsOf, type Trajectory } from '../../../src/core/trajectories';
import {
  aggregate,
  aggregateRecorded,
  DEFAULT_REPLAY_OPTIONS,
  replayTrajectory,
  RETRY_FILTER_NOTE,
  STRATEGY_NAMES,
} from '../../../src/core/replay/replay';
import { conversation, trajectoryOf, turnsArb, wordTokenizer } from '../strategies/helpers';
import { assertQuick } from '../../support/linear-time';
import { buildReport } from '../../../src/cli/replay/report';
import { formatTable } from '../../../src/cli/replay/report-table';
import { reportMeta } from './report-meta';

const tokenizer = wordTokenizer();
const size = (ms: readonly Message[]) => ms.reduce((n, m) => n + tokenizer.countMessage(m), 0);

test('one call per assistant message, each sending the messages before it; raw caches the previous request', async () => {
  const t = trajectoryOf(conversation(Array.from({ length: 6 }, () => ({ action: 3, observations: [10] }))));
  const r = await replayTrajectory(t, 'raw', { ...DEFAULT_REPLAY_OPTIONS, minCachedTokens: 0 }, tokenizer);
  const actions = t.messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  assert.equal(r.calls.length, actions.length);
  r.calls.forEach((c, k) => {
    assert.equal(c.contextTokens, size(t.messages.slice(0, actions[k])));
    assert.equal(c.cachedTokens, k === 0 ? 0 : r.calls[k - 1]!.contextTokens);
    assert.ok(Math.abs(c.cost - (c.cachedTokens * 0.1 + (c.contextTokens - c.cachedTokens))) < 1e-9);
    assert.equal(c.summaryCall, false);
  });
  assert.equal(r.summaryEstimated, false);
  assert.deepEqual(r.notes, []);
});

test('a shared prefix under the minimum a provider caches (1,024 tokens by default) is billed whole', async () => {
  const t = trajectoryOf(conversation(Array.from({ length: 12 }, () => ({ action: 20, observations: [150] }))));
  assert.equal(DEFAULT_REPLAY_OPTIONS.minCachedTokens, 1024);
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
  let short = 0;
  r.calls.forEach((c, k) => {
    const shared = k === 0 ? 0 : r.calls[k - 1]!.contextTokens;
    if (shared < 1024) short++;
    assert.equal(c.cachedTokens, shared >= 1024 ? shared : 0, `call ${k}`);
    assert.ok(Math.abs(c.cost - (c.cachedTokens * 0.1 + (c.contextTokens - c.cachedTokens))) < 1e-9);
  });
  assert.ok(short >= 2 && short < r.calls.length, `${short} of ${r.calls.length} calls under the minimum`);
  await assert.rejects(
    replayTrajectory(t, 'raw', { ...DEFAULT_REPLAY_OPTIONS, minCachedTokens: -1 }, tokenizer),
    /minCachedTokens must be an integer >= 0/,
  );
});

test('masking at cached price 0.1 sends fewer tokens than raw but costs more (the broken prefix)', async () => {
  const t = trajectoryOf(
    conversation(Array.from({ length: 60 }, () => ({ action: 5, observations: [150], lines: 5 }))),
  );
  const raw = aggregate([await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer)]);
  const masking = aggregate([await replayTrajectory(t, 'masking', DEFAULT_REPLAY_OPTIONS, tokenizer)]);
  const aware = aggregate([await replayTrajectory(t, 'cache-aware', DEFAULT_REPLAY_OPTIONS, tokenizer)]);
  assert.ok(masking.inputTokens < raw.inputTokens);
  assert.ok(masking.cost > raw.cost);
  assert.ok(aware.cost < raw.cost && aware.cost < masking.cost);
  assert.equal(masking.maskedObservations, 50);
});

test('summaries come from the labelled stand-in: counted as calls, billed, flagged as estimates', async () => {
  const t = trajectoryOf(conversation(Array.from({ length: 40 }, () => ({ action: 5, observations: [50] }))));
  const r = await replayTrajectory(t, 'summary', { ...DEFAULT_REPLAY_OPTIONS, summaryTokens: 40 }, tokenizer);
  const withSummary = r.calls.filter((c) => c.summaryCall);
  assert.equal(withSummary.length, 1);
  const c = withSummary[0]!;
  assert.equal(c.summaryOutputTokens, 40);
  assert.ok(c.summaryInputTokens > 0);
  assert.equal(c.inputTokens, c.contextTokens + c.summaryInputTokens);
  assert.ok(c.cost >= c.summaryInputTokens);
  // The summarizer prompt is billed like an agent call with nothing cached: written whole at the write price.
  const anthropic = { ...DEFAULT_REPLAY_OPTIONS, summaryTokens: 40, cacheWritePrice: 1.25 };
  const written = (await replayTrajectory(t, 'summary', anthropic, tokenizer)).calls.find((x) => x.summaryCall)!;
  const agentCall = written.cachedTokens * anthropic.cachedPrice + written.cacheWriteTokens * 1.25;
  assert.ok(Math.abs(written.cost - (agentCall + written.summaryInputTokens * 1.25)) < 1e-9);
  assert.equal(r.summaryEstimated, true);
  assert.match(r.notes.join('\n'), /stand-in/);
  const totals = aggregate([r]);
  assert.equal(totals.summaryCalls, 1);
  assert.equal(totals.summaryEstimated, true);
});

test('retry-filter is replayed as first attempts, and says so', async () => {
  const t = trajectoryOf(
    conversation(Array.from({ length: 5 }, () => ({ action: 5, observations: [50], tool: true }))),
  );
  const rf = await replayTrajectory(t, 'retry-filter', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const raw = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
  assert.deepEqual(rf.calls, raw.calls);
  assert.deepEqual(rf.notes, [RETRY_FILTER_NOTE]);
});

test('recorded output tokens are used, and billed only with includeOutput', async () => {
  const base = trajectoryOf(conversation([{ action: 5, observations: [5] }]));
  const t = { ...base, calls: callsOf(base).map((c, i) => (i === 0 ? { ...c, recorded: { outputTokens: 7 } } : c)) };
  const off = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const on = await replayTrajectory(
    t,
    'raw',
    { ...DEFAULT_REPLAY_OPTIONS, includeOutput: true, outputPrice: 4 },
    tokenizer,
  );
  assert.equal(off.calls[0]!.outputTokens, 7);
  assert.equal(off.calls[0]!.outputRecorded, true);
  assert.equal(off.calls[1]!.outputRecorded, false);
  assert.equal(off.calls[1]!.outputTokens, 1); // "done", counted without the message overhead
  assert.ok(Math.abs(on.calls[0]!.cost - off.calls[0]!.cost - 28) < 1e-9);
  assert.ok(Math.abs(on.calls[1]!.cost - off.calls[1]!.cost - 4) < 1e-9);
});

test('calls send their own context: after a reset only what follows it, a rejected reply has no output', async () => {
  const messages: Message[] = [
    { role: 'user', content: 'task '.repeat(50), origin: 'person' },
    { role: 'assistant', content: 'a1', origin: 'agent' },
    { role: 'user', content: 'observation '.repeat(200), origin: 'environment' },
    { role: 'assistant', content: 'a2', origin: 'agent' },
    { role: 'user', content: 'summary of it all', origin: 'agent' },
    { role: 'assistant', content: 'a3', origin: 'agent' },
  ];
  const t: Trajectory = {
    id: 't',
    source: 't.jsonl',
    format: 'claude-code',
    messages,
    calls: [
      { context: [[0, 1]], output: 1, recorded: { inputTokens: 60 } },
      { context: [[0, 3]], output: 3, recorded: { inputTokens: 260, cachedTokens: 60, cost: 0.5 } },
      { context: [[0, 3]], recorded: { inputTokens: 270 } }, // a rejected reply: nothing kept
      { context: [[4, 5]], output: 5, recorded: { inputTokens: 12 } },
    ],
  };
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const count = (ms: Message[]) => ms.reduce((n, m) => n + tokenizer.countMessage(m), 0);
  assert.deepEqual(
    r.calls.map((c) => c.contextTokens),
    [
      count(messages.slice(0, 1)),
      count(messages.slice(0, 3)),
      count(messages.slice(0, 3)),
      count(messages.slice(4, 5)),
    ],
  );
  assert.equal(r.calls[2]!.outputTokens, 0);
  assert.equal(r.calls[3]!.cachedTokens, 0, 'a new context shares no prefix with the old one');
  const rec = aggregateRecorded([r]);
  assert.equal(rec.calls, 4);
  assert.equal(rec.inputTokens, 60 + 260 + 270 + 12);
  assert.equal(rec.peakContextTokens, 270);
  assert.equal(rec.cost, 0.5);
  assert.equal(
    rec.computedInputTokens,
    r.calls.reduce((n, c) => n + c.contextTokens, 0),
  );
});

test('aggregate sums calls, keeps the peak and counts masked observations once per trajectory', async () => {
  const a = trajectoryOf(conversation(Array.from({ length: 15 }, () => ({ action: 3, observations: [30] }))), 'a');
  const b = trajectoryOf(conversation(Array.from({ length: 25 }, () => ({ action: 3, observations: [30, 30] }))), 'b');
  const ra = await replayTrajectory(a, 'masking', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const rb = await replayTrajectory(b, 'masking', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const t = aggregate([ra, rb]);
  assert.equal(t.trajectories, 2);
  assert.equal(t.calls, ra.calls.length + rb.calls.length);
  assert.equal(t.maskedObservations, 5 + 2 * 15);
  assert.equal(t.peakContextTokens, Math.max(...[...ra.calls, ...rb.calls].map((c) => c.contextTokens)));
  const sum = (k: 'inputTokens' | 'cost' | 'cachedTokens') => [...ra.calls, ...rb.calls].reduce((n, c) => n + c[k], 0);
  assert.equal(t.inputTokens, sum('inputTokens'));
  assert.equal(t.cachedTokens, sum('cachedTokens'));
  assert.ok(Math.abs(t.cost - sum('cost')) < 1e-6);
  const empty = aggregate([]);
  assert.deepEqual(
    [empty.trajectories, empty.calls, empty.cost, empty.peakContextTokens, empty.summaryEstimated],
    [0, 0, 0, 0, false],
  );
});

test('bad options are refused before any work, with a clear message', async () => {
  const t = trajectoryOf(conversation([{ action: 1, observations: [1] }]));
  await assert.rejects(
    replayTrajectory(t, 'raw', { ...DEFAULT_REPLAY_OPTIONS, window: -3 }, tokenizer),
    /window must be/,
  );
  await assert.rejects(
    replayTrajectory(t, 'raw', { ...DEFAULT_REPLAY_OPTIONS, outputPrice: -1 }, tokenizer),
    /outputPrice/,
  );
});

test('a trajectory without assistant messages replays to zero calls', async () => {
  const r = await replayTrajectory(
    { id: 'x', source: 'x', format: 'openai-chat', messages: [{ role: 'user', content: 'hi' }] },
    'cache-aware',
    DEFAULT_REPLAY_OPTIONS,
    tokenizer,
  );
  assert.deepEqual(r.calls, []);
  assert.equal(aggregate([r]).calls, 0);
});

test('property: for every strategy cached tokens never exceed input, and context never exceeds raw', async () => {
  await fc.assert(
    fc.asyncProperty(turnsArb(1, 60, 60), fc.constantFrom(...STRATEGY_NAMES), async (spec, name) => {
      const t = trajectoryOf(conversation(spec));
      const options = { ...DEFAULT_REPLAY_OPTIONS, summaryTokens: 20, contextWindow: 3000 };
      const r = await replayTrajectory(t, name, options, tokenizer);
      const raw = await replayTrajectory(t, 'raw', options, tokenizer);
      r.calls.forEach((c, k) => {
        assert.ok(c.cachedTokens <= c.contextTokens && c.contextTokens <= c.inputTokens);
        assert.ok(c.contextTokens <= raw.calls[k]!.contextTokens);
      });
    }),
    { numRuns: 60 },
  );
});

test('with the real o200k tokenizer the stand-in summary has exactly the requested size', async () => {
  const o200k = createTokenizer('o200k');
  const t = trajectoryOf(conversation(Array.from({ length: 35 }, () => ({ action: 5, observations: [40] }))));
  const r = await replayTrajectory(t, 'summary', { ...DEFAULT_REPLAY_OPTIONS, summaryTokens: 400 }, o200k);
  const c = r.calls.find((x) => x.summaryCall)!;
  assert.equal(c.summaryOutputTokens, 400);
});

test("a long run's masked observations have their lines counted once, not at every call (a loose bound on time)", async () => {
  // 3,000 calls in one context: each call masks every earlier observation again. Their lines were
  // counted again each time: masking alone took over 30 s here, about a second now.
  const messages: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the bug.' },
  ];
  for (let i = 0; i < 3000; i++) {
    messages.push({
      role: 'assistant',
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: 'bash', arguments: '{}' }],
    });
    messages.push({ role: 'tool', toolCallId: `c${i}`, name: 'bash', content: `line ${i}\n`.repeat(200) });
  }
  const t: Trajectory = { id: 'long', source: 'long', format: 'openai-chat', messages };
  for (const strategy of ['masking', 'cache-aware'] as const) {
    const started = performance.now();
    const r = await replayTrajectory(t, strategy, DEFAULT_REPLAY_OPTIONS, tokenizer);
    assertQuick(started);
    assert.equal(r.calls.length, 3000);
    assert.ok(r.calls.at(-1)!.maskedObservations > 2900, `${strategy}: ${r.calls.at(-1)!.maskedObservations}`);
  }
});

test('recorded output is summed over the calls whose prompt size was recorded, the scope it is printed with', async () => {
  const messages: Message[] = [
    { role: 'user', content: 'task', origin: 'person' },
    { role: 'assistant', content: 'a1', origin: 'agent' },
    { role: 'user', content: 'observation', origin: 'environment' },
    { role: 'assistant', content: 'a2', origin: 'agent' },
  ];
  const t: Trajectory = {
    id: 't',
    source: 't.json',
    format: 'mini-swe-agent',
    messages,
    calls: [
      { context: [[0, 1]], output: 1, recorded: { inputTokens: 60, outputTokens: 5 } },
      // Output without a prompt size: outside the recorded calls, so not in their output either.
      { context: [[0, 3]], output: 3, recorded: { outputTokens: 7 } },
    ],
  };
  const rec = aggregateRecorded([await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer)]);
  assert.equal(rec.calls, 1);
  assert.deepEqual([rec.outputTokens, rec.outputCalls], [5, 1]);
});

test("Context Desk's recomputed cost units are shown on the recorded row only when they cover the row's calls", async () => {
  const messages: Message[] = [
    { role: 'user', content: 'task', origin: 'person' },
    { role: 'assistant', content: 'a1', origin: 'agent' },
    { role: 'user', content: 'observation', origin: 'environment' },
    { role: 'assistant', content: 'a2', origin: 'agent' },
  ];
  const run = async (secondInput?: number) => {
    const t: Trajectory = {
      id: 't',
      source: 't.jsonl',
      format: 'context-desk',
      messages,
      calls: [
        { context: [[0, 1]], output: 1, recorded: { sentTokens: 100, costUnits: 5000, inputTokens: 300 } },
        {
          context: [[0, 3]],
          output: 3,
          recorded: { sentTokens: 120, costUnits: 7000, ...(secondInput ? { inputTokens: secondInput } : {}) },
        },
      ],
    };
    const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
    const meta = reportMeta({ tokenizer: 'words', contextWindow: 1 });
    return formatTable(
      buildReport([{ strategy: 'raw', totals: aggregate([r]), replays: [r] }], meta, (x) => aggregate([x])),
    );
  };
  const recordedRow = (table: string) => table.split('\n').find((l) => l.startsWith('recorded '))!;
  // One of the two recorded calls has a provider prompt size: the row is that call, the units both.
  const partial = await run();
  assert.match(recordedRow(partial), /^recorded\s+1\s+1\s+300\s+\S+\s+-\s/);
  assert.match(
    partial,
    /Context Desk's call records \(2 model calls\): 220 tokens sent by the agent's own count, 12,000 cost units/,
  );
  assert.match(
    recordedRow(await run(400)),
    /^recorded\s+1\s+2\s+700\s+\S+\s+12,000\s/,
    'the same calls: shown on the row',
  );
});
