// A conversation that used three models: each model's units are its own uncached input token, so the two
// earlier models' units are kept apart per model (never one "earlier-model" sum) in the live events, the
// session's state, a resumed meter, History, the panel's label and the status bar.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTotals } from '../../../src/core/agent/call-log';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { CallRecord, SessionState, SummaryCallRecord } from '../../../src/core/agent/session-state';
import { summarizeRecords } from '../../../src/core/agent/history-summary';
import { meterFromLog } from '../../../src/extension/agent/meter';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { statusBarTooltip } from '../../../src/extension/statusBarText';
import { costLabel, sessionMeta } from '../../../src/webview/lib/labels';
import { harness } from './helpers';

const call = (n: number, model: string, cost: number): CallRecord =>
  ({
    turn: n,
    call: n,
    at: n,
    model,
    tokensSent: 1000,
    rawHistoryTokens: 1000,
    cachedTokens: 0,
    outputTokens: 10,
    cost,
  }) as CallRecord;

const log: { calls: CallRecord[]; summaryCalls: SummaryCallRecord[] } = {
  calls: [call(1, 'model-a', 1000), call(2, 'model-b', 200), call(3, 'model-a', 40), call(4, 'model-c', 7)],
  summaryCalls: [{ model: 'model-b', agentModel: 'model-b', inputTokens: 50, outputTokens: 5, cost: 70 }],
};

test('three models: callTotals keeps each earlier model’s units under its name, in the order first used', () => {
  const t = callTotals(log);
  assert.equal(t.costUnits, 7, 'the current (last) model’s units only');
  assert.deepEqual(t.otherModelUnits, [
    { model: 'model-a', units: 1040 },
    { model: 'model-b', units: 270 },
  ]);
  // Asked under another model, that one's units come out of the list and into costUnits.
  const underA = callTotals(log, 'model-a');
  assert.equal(underA.costUnits, 1040);
  assert.deepEqual(underA.otherModelUnits, [
    { model: 'model-b', units: 270 },
    { model: 'model-c', units: 7 },
  ]);
});

test('three models: History, a resumed meter, the panel and the status bar name each earlier model with its own units', () => {
  const lines = [
    ...log.calls.map((c) => ({ v: 1, session: 's', kind: 'call', call: c })),
    ...log.summaryCalls.map((c) => ({ v: 1, session: 's', kind: 'summary-call', call: c })),
  ];
  const h = summarizeRecords(lines);
  assert.deepEqual(h.otherModelUnits, callTotals(log).otherModelUnits);
  const meta = sessionMeta({ id: 's', title: 't', createdAt: 0, ...h, turns: 4 }, 0);
  assert.match(meta, /7 units \+ 1\.04k units of model-a \+ 270 units of model-b/);
  const meter = meterFromLog(emptyChat('s', 'masking', 1000, false).meter, log);
  assert.deepEqual(meter.otherModelUnits, callTotals(log).otherModelUnits);
  const label = costLabel(meter);
  assert.equal(label.text, '7 units + 1.04k units of model-a + 270 units of model-b');
  const tip = statusBarTooltip({ strategy: 'masking', meter });
  assert.match(tip, /model-a: 1,040 units/);
  assert.match(tip, /model-b: 270 units/);
  assert.doesNotMatch(tip, /1,310/, 'never the two earlier models added up');
});

test('three models: a model name is shown as text in the status bar’s Markdown tooltip, and many models are cut short', () => {
  const calls = [
    ...Array.from({ length: 40 }, (_, i) => call(i + 1, `m${i}`, 10)),
    call(41, '[x](command:evil) *b*', 5),
    call(42, 'now', 1),
  ];
  const meter = meterFromLog(emptyChat('s', 'masking', 1000, false).meter, { calls, summaryCalls: [] });
  const tip = statusBarTooltip({ strategy: 'masking', meter });
  assert.doesNotMatch(tip, /\]\(command:/, 'no link from a model name');
  assert.match(tip, /and 38 more models/);
  const label = costLabel(meter);
  assert.match(label.text, /and 38 more models/);
});

test('three models live: each switch keeps every earlier model apart, and the live meter agrees with History', async () => {
  let saved: SessionState | undefined;
  const units: Record<string, number> = {};
  for (const model of ['model-a', 'model-b', 'model-c']) {
    const h = await harness([{ reply: { text: `From ${model}.` } }], {
      model,
      ...(saved ? { restore: saved } : {}),
    });
    try {
      await h.agent.send('Go');
      saved = h.agent.state();
      const finished = h.events.filter(
        (e): e is Extract<AgentEvent, { type: 'call-finished' }> => e.type === 'call-finished',
      );
      assert.equal(finished.length, 1);
      const e = finished[0]!;
      units[model] = e.record.cost;
      const expected = Object.entries(units)
        .filter(([m]) => m !== model)
        .map(([m, u]) => ({ model: m, units: u }));
      assert.deepEqual(e.otherModelUnits ?? [], expected, `after ${model}`);
      assert.equal(e.costSoFar, units[model]);
      assert.deepEqual(saved.otherModelUnits ?? [], expected);
      assert.deepEqual(callTotals(saved).otherModelUnits ?? [], expected, 'History agrees');
      // The panel built from these events shows what a resume shows.
      const live = new ChatModel(emptyChat('s', 'masking', 1000, false));
      live.event(e);
      const resumed = meterFromLog(emptyChat('s', 'masking', 1000, false).meter, saved);
      assert.deepEqual(live.snapshot.meter.otherModelUnits, resumed.otherModelUnits);
      assert.equal(live.snapshot.meter.costUnits, resumed.costUnits);
    } finally {
      await h.close();
    }
  }
  assert.equal(Object.keys(units).length, 3);
});

test('three models with every price known: the money is the sum, and the units beside it say whose they are', () => {
  const priced = { ...log, calls: log.calls.map((c) => ({ ...c, costUsd: c.cost * 1e-6 })) };
  priced.summaryCalls = [{ ...log.summaryCalls[0]!, costUsd: 70e-6 }];
  const meter = meterFromLog(emptyChat('s', 'masking', 1000, false).meter, priced);
  assert.ok(meter.costUsd !== undefined);
  const label = costLabel(meter);
  assert.match(label.text, /^\$/);
  assert.doesNotMatch(label.title, /\(7 units: input-token equivalents\)/, 'not one model’s units as the money’s');
  assert.match(
    label.title,
    /7 units of the current model; earlier models in their own units: 1\.04k units of model-a, 270 units of model-b/,
  );
  const tip = statusBarTooltip({ strategy: 'masking', meter });
  assert.match(tip, /7 units of the current model/);
  assert.match(tip, /model-a: 1,040 units; model-b: 270 units/);
});
