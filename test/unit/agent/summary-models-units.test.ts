// Two separate summary models of unknown price (the setting changed mid-session): each one's units are
// its own uncached input token, so they are kept apart per summary model, never one "summary units" sum,
// live and after a resume alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTotals } from '../../../src/core/agent/call-log';
import type { CallRecord, SummaryCallRecord } from '../../../src/core/agent/session-state';
import { meterFromLog } from '../../../src/extension/agent/meter';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { statusBarTooltip } from '../../../src/extension/statusBarText';
import { costLabel } from '../../../src/webview/lib/labels';

const call = {
  turn: 1,
  call: 1,
  at: 1,
  model: 'agent',
  tokensSent: 10,
  rawHistoryTokens: 10,
  cachedTokens: 0,
  outputTokens: 0,
  cost: 10,
} as CallRecord;
const summary = (model: string, cost: number): SummaryCallRecord => ({
  model,
  inputTokens: 300,
  outputTokens: 50,
  cost,
  unitsOf: model,
});
const summaries = [summary('mini-a', 500), summary('mini-b', 70), summary('mini-a', 30)];

test('two summary models: their units are kept per model, in History’s totals, a resumed meter and the live meter', () => {
  const t = callTotals({ calls: [call], summaryCalls: summaries });
  assert.equal(t.costUnits, 10);
  assert.deepEqual(t.summaryUnits, [
    { model: 'mini-a', units: 530 },
    { model: 'mini-b', units: 70 },
  ]);
  const resumed = meterFromLog(emptyChat('s', 'summary', 1000, false).meter, {
    calls: [call],
    summaryCalls: summaries,
  });
  assert.equal(costLabel(resumed).text, '10 units + 530 summary units of mini-a + 70 summary units of mini-b');
  const tip = statusBarTooltip({ strategy: 'summary', meter: resumed });
  assert.match(tip, /mini-a: 530 units; mini-b: 70 units/);
  assert.doesNotMatch(tip, /600/);
  const live = new ChatModel(emptyChat('s', 'summary', 1000, false));
  live.event({ type: 'call-finished', turn: 1, call: 1, outputTokens: 0, record: call, costSoFar: 10 });
  for (const s of summaries) live.event({ type: 'summary-call', record: s, costSoFar: 10 });
  assert.deepEqual(live.snapshot.meter.summaryUnits, resumed.summaryUnits);
});
