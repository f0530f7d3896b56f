// A conversation that switched models mid-way: each model's units are its own uncached input, so the
// units of two models are never added into one figure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTotals } from '../../../src/core/agent/call-log';
import type { CallRecord } from '../../../src/core/agent/session-state';
import { costLabel, sessionMeta } from '../../../src/webview/lib/labels';

const call = (n: number, model: string, cost: number, costUsd?: number): CallRecord =>
  ({
    turn: n,
    call: n,
    model,
    tokensSent: 1000,
    rawHistoryTokens: 1000,
    cachedTokens: 0,
    outputTokens: 10,
    cost,
    ...(costUsd !== undefined ? { costUsd } : {}),
  }) as unknown as CallRecord;

test('after a switch to a model of unknown price, its units and the earlier model’s are kept apart', () => {
  const t = callTotals({ calls: [call(1, 'gpt-4o', 1040, 0.0026), call(2, 'my-local-llama', 700)], summaryCalls: [] });
  assert.equal(t.costUnits, 700, 'the current (last) model’s units');
  assert.deepEqual(t.otherModelUnits, [{ model: 'gpt-4o', units: 1040 }]);
  assert.equal(t.costUsd, undefined, 'no money: one call has no price');
  const label = costLabel({ costUnits: t.costUnits, otherModelUnits: t.otherModelUnits, calls: 2 });
  assert.equal(label.text, '700 units + 1.04k units of gpt-4o');
  const meta = sessionMeta({ id: 'x', title: 't', createdAt: 0, turns: 2, ...t }, 0);
  assert.match(meta, /700 units \+ 1\.04k units of gpt-4o/);
  // With every price known the money is the sum; one model alone has no other units.
  const both = callTotals({
    calls: [call(1, 'gpt-4o', 1000, 0.0025), call(2, 'claude-sonnet-4-5', 500, 0.0015)],
    summaryCalls: [],
  });
  assert.equal(both.costUsd, 0.004);
  assert.equal(
    costLabel({ costUnits: both.costUnits, otherModelUnits: both.otherModelUnits, costUsd: both.costUsd }).text,
    '$0.004',
  );
  const one = callTotals({ calls: [call(1, 'gpt-4o', 1000), call(2, 'gpt-4o', 500)], summaryCalls: [] });
  assert.deepEqual([one.costUnits, one.otherModelUnits], [1500, undefined]);
});
