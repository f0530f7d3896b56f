// Every figure the meter shows can be recomputed from disk: a session against a loopback server writes a
// call record per model call to its history file; replay reads the same figures back from the file, and a
// resumed session goes on from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { callLogFrom, callTotals, parseCallRecord, recomputedCost } from '../../../src/core/agent/call-log';
import { sessionStateFromHistory } from '../../../src/core/agent/resume';
import type { CallRecord } from '../../../src/core/agent/session-state';
import { silentLogger } from '../../../src/core/ports';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, loadSession } from '../../../src/core/store/history';
import { SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { runCli } from '../../support/cli';
import type { ReplyStep, ScriptStep } from '../../support/scripted-model-server';
import { tempDir } from '../store/helpers';
import { harness, readSteps } from './helpers';

const money = { usdPerUnit: 2.5e-6, model: 'gpt-4o', source: 'default' as const, asOf: '2026-11-24' };
const prices = { cachedPrice: 0.5, cacheWritePrice: 1, outputPrice: 4 };

function withUsage(steps: ReplyStep[]): ReplyStep[] {
  return steps.map((s, i) => ({
    ...s,
    usage: { promptTokens: 900 + 60 * i, completionTokens: 20 + i, cachedTokens: i === 0 ? 0 : 512 },
  }));
}

async function recordedSession(t: Parameters<typeof tempDir>[0], steps: ScriptStep[]) {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const writer = await HistoryWriter.open(store, 'chat-rec');
  const history = SessionHistory.open(writer, 0, [], silentLogger);
  const box: { agent?: { messages: readonly unknown[] } } = {};
  const h = await harness(steps, {
    prices,
    money,
    budget: { session: { limit: 1_000_000, mode: 'hard' } },
    onCall: (r) => void history.call((box.agent?.messages ?? []) as never, r),
  });
  box.agent = h.agent;
  return { h, history, store, file: writer.paths.jsonl };
}

test('call records add up to what the session billed; replay recomputes them from the history file', async (t) => {
  const steps: ScriptStep[] = [
    ...withUsage(readSteps(4)),
    // Fails after the server answered, with no usage: a counted call, not billed, then retried as it was.
    { fault: 'mid-stream-error', text: 'Let me' },
    ...withUsage([{ reply: { text: 'All read.' } }]),
  ];
  const { h, history, file } = await recordedSession(t, steps);
  try {
    assert.equal(await h.agent.send('Read the files'), 'completed');
  } finally {
    await h.close();
  }
  await history.sync(h.agent.messages);
  await history.close();
  const state = h.agent.state();
  assert.equal(state.calls.length, 6);

  const lines = (await fsp.readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const log = callLogFrom(lines);
  assert.equal(log.skipped, 0);
  assert.deepEqual(log.calls, state.calls, 'the file keeps every record as the session made it');
  // Each answered call's record follows its answer; the failed one is not billed and says why.
  lines.forEach((l, i) => {
    if (l.kind !== 'call' || !(l.call as CallRecord).answered) return;
    assert.equal((lines[i - 1]!.message as { role: string }).role, 'assistant', `record ${i} follows its answer`);
  });
  const failed = state.calls.find((c) => c.error);
  assert.equal(failed?.billedBy, 'none');
  assert.equal(failed?.cost, 0);
  for (const r of state.calls) {
    assert.ok(Math.abs(recomputedCost(r) - r.cost) < 1e-9, `call ${r.call} recomputes from its figures`);
    assert.equal(r.parts!.system + r.parts!.tools + r.parts!.messages + r.parts!.priming, r.tokensSent);
    assert.ok(r.parts!.tools > 0, 'tool definitions are counted');
    assert.equal(r.tokenizer, 'o200k');
    assert.equal(r.strategy, 'cache-aware');
  }
  const billed = state.calls.filter((c) => c.billedBy === 'provider');
  assert.equal(billed.length, 5);
  assert.ok(billed.every((c) => c.costUsd !== undefined && Math.abs(c.costUsd - c.cost * money.usdPerUnit) < 1e-12));
  const totals = callTotals(log);
  assert.ok(Math.abs(totals.costUnits - state.cost) < 1e-6);
  assert.equal(totals.costUsd !== undefined, true);

  const run = await runCli(['replay', file, '--format', 'json']);
  assert.equal(run.code, 0, run.err);
  const report = JSON.parse(run.out) as {
    calls: number;
    recorded: {
      calls: number;
      inputTokens: number;
      cachedTokens: number;
      sentTokens: number;
      costUnits: number;
      costUsd: number;
      outputTokens: number;
    };
  };
  assert.equal(report.calls, 6, 'the failed call is a call of the replay too');
  const rec = report.recorded;
  assert.equal(rec.calls, totals.reportedCalls);
  assert.equal(rec.inputTokens, totals.reportedInputTokens);
  assert.equal(rec.cachedTokens, totals.reportedCachedTokens);
  assert.equal(rec.sentTokens, totals.tokensSent);
  assert.equal(rec.outputTokens, totals.outputTokens);
  assert.ok(Math.abs(rec.costUnits - state.cost) / state.cost < 0.005);
  assert.ok(Math.abs(rec.costUsd - totals.costUsd!) / totals.costUsd! < 0.005);
});

test('a resumed session goes on from its call records: calls, cost and the budget count', async (t) => {
  const { h, history, store } = await recordedSession(
    t,
    withUsage(readSteps(3).concat([{ reply: { text: 'Done.' } }])),
  );
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
  } finally {
    await h.close();
  }
  await history.sync(h.agent.messages);
  await history.close();
  const before = h.agent.state();
  const { records } = await loadSession(store, 'chat-rec');
  const resumed = sessionStateFromHistory(records, {
    id: 'chat-rec',
    provider: 'openai-compatible',
    model: 'scripted',
    strategy: 'cache-aware',
    now: 1,
  });
  assert.equal(resumed.calls.length, before.calls.length);
  assert.ok(Math.abs(resumed.cost - before.cost) < 1e-9);
  assert.equal(resumed.spentTokens, before.spentTokens);
});

test('a hostile or damaged call record is skipped, never counted', () => {
  const good = {
    turn: 1,
    call: 1,
    retry: false,
    tokensSent: 10,
    rawHistoryTokens: 10,
    cachedTokens: 0,
    outputTokens: 1,
    cost: 14,
    at: 1,
  };
  assert.ok(parseCallRecord(good));
  for (const bad of [
    { ...good, cost: -5 },
    { ...good, tokensSent: 'many' },
    { ...good, cost: Number.POSITIVE_INFINITY },
    { ...good, usage: { inputTokens: -1 } },
    { ...good, costUsd: '0.1' },
    [],
    null,
  ])
    assert.equal(parseCallRecord(bad), undefined, JSON.stringify(bad));
  const log = callLogFrom([
    { v: 1, session: 's', kind: 'call', at: 'x', call: good },
    { v: 1, session: 's', kind: 'call', at: 'x', call: { ...good, cost: 'free' } },
    { v: 1, session: 's', index: 0, at: 'x', message: { role: 'user', content: 'hi' } },
  ]);
  assert.equal(log.calls.length, 1);
  assert.equal(log.skipped, 1);
});
