// A conversation that goes on with another model: the live meter's events, the session's `cost` and
// History (callTotals over the records) keep each model's cost units apart, and agree at every moment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTotals } from '../../../src/core/agent/call-log';
import type { AgentEvent } from '../../../src/core/agent/events';
import { unitsUnderModel, type ModelUnits } from '../../../src/core/agent/model-units';
import type { SessionState, SummaryCallRecord } from '../../../src/core/agent/session-state';
import { harness } from './helpers';

const unitsOf = (e: AgentEvent): [number, ModelUnits[] | undefined] | undefined =>
  e.type === 'context-prepared' || e.type === 'call-finished' ? [e.costSoFar, e.otherModelUnits] : undefined;

test('after a switch the live events, state.cost and History count only the new model’s units, the old apart', async () => {
  const first = await harness([{ reply: { text: 'One.' } }], { model: 'model-a' });
  let saved: SessionState;
  try {
    await first.agent.send('Go');
    saved = first.agent.state();
  } finally {
    await first.close();
  }
  const aUnits = saved.cost;
  assert.ok(aUnits > 0);
  const second = await harness([{ reply: { text: 'Two.' } }], { model: 'model-b', restore: saved });
  try {
    await second.agent.send('Again');
    const state = second.agent.state();
    const live = second.events.flatMap((e) => (unitsOf(e) ? [unitsOf(e)!] : []));
    assert.equal(live.length, 2, 'context-prepared and call-finished');
    for (const [units, other] of live) {
      assert.deepEqual(
        other,
        [{ model: 'model-a', units: aUnits }],
        'the earlier model’s units, apart, while streaming and after',
      );
      assert.ok(units > 0);
    }
    const history = callTotals(state);
    assert.equal(state.cost, history.costUnits);
    assert.deepEqual(state.otherModelUnits, history.otherModelUnits);
    assert.equal(live.at(-1)![0], history.costUnits, 'the meter after the call is what History shows');
    assert.equal(history.costUnits, state.calls[1]!.cost, 'only model-b’s own call');
  } finally {
    await second.close();
  }
});

test('the agent’s own summary calls made before a switch are the earlier model’s units', () => {
  const summary = (over: Partial<SummaryCallRecord>): SummaryCallRecord => ({
    model: 'model-a',
    inputTokens: 100,
    outputTokens: 10,
    cost: 140,
    ...over,
  });
  const calls = [
    { turn: 1, call: 1, model: 'model-a', cost: 1000 },
    { turn: 2, call: 2, model: 'model-b', cost: 300 },
  ] as SessionState['calls'];
  // A record that names its agent model, and an older one whose own model (no money) tells the units.
  const log = { calls, summaryCalls: [summary({ agentModel: 'model-a' }), summary({})] };
  const t = callTotals(log);
  assert.deepEqual([t.costUnits, t.otherModelUnits], [300, [{ model: 'model-a', units: 1280 }]]);
  // A converted separate summary model's call (money known) is in the agent model's units it names.
  const converted = summary({ model: 'mini', agentModel: 'model-b', costUsd: 0.001, cost: 40 });
  assert.deepEqual(callTotals({ calls, summaryCalls: [converted] }).costUnits, 340);
  // The state a resumed session goes on from agrees with History.
  const state = { calls, summaryCalls: log.summaryCalls, cost: 1580 } as SessionState;
  unitsUnderModel(state, 'model-b');
  assert.deepEqual([state.cost, state.otherModelUnits], [300, [{ model: 'model-a', units: 1280 }]]);
});
