import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBudget, backpressureDelay, DEFAULT_BACKPRESSURE, type ApprovalRequest } from '../../../src/core/budget';
import { recorder, virtualTime } from './helpers';

test('hard mode refuses a spend that would pass the limit and records nothing', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const b = new TokenBudget({ session: { limit: 1000, mode: 'hard' }, onEvent, sleep: time.sleep, clock: time });
  // A grant says what the hard limit leaves after it (a model call caps its output there).
  assert.deepEqual(await b.request({ tokens: 600 }), {
    allowed: true,
    delayedMs: 0,
    room: { level: 'session', tokens: 400, mode: 'hard' },
  });
  const d = await b.request({ tokens: 500 });
  assert.deepEqual(d, { allowed: false, scope: { level: 'session' }, reason: 'hard-limit' });
  assert.equal(b.usage()[0]!.used, 600);
  const ex = events.find((e) => e.type === 'exceeded');
  assert.ok(ex && ex.type === 'exceeded' && ex.refused && ex.requested === 500 && ex.used === 600);
  // exactly up to the limit is fine
  assert.equal((await b.request({ tokens: 400 })).allowed, true);
});

test('the room told with a grant is the tightest hard limit that applies, none under soft ones', async () => {
  const time = virtualTime();
  const b = new TokenBudget({
    session: { limit: 10_000, mode: 'hard' },
    task: { limit: 3_000, mode: 'hard' },
    agent: { limit: 1_000, mode: 'soft' },
    sleep: time.sleep,
    clock: time,
  });
  const d = await b.request({ tokens: 500, taskId: 't1', agentId: 'a1' });
  assert.ok(d.allowed);
  assert.deepEqual(d.room, { level: 'task', id: 't1', tokens: 2_500, mode: 'hard' });
  const soft = new TokenBudget({ session: { limit: 1_000, mode: 'soft' }, sleep: time.sleep, clock: time });
  const s = await soft.request({ tokens: 500 });
  assert.ok(s.allowed && s.room === undefined);
});

test('soft mode lets the spend through and reports it exceeded', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const b = new TokenBudget({ task: { limit: 100, mode: 'soft' }, onEvent, sleep: time.sleep, clock: time });
  assert.equal((await b.request({ tokens: 150, taskId: 't1' })).allowed, true);
  assert.equal(b.usage().find((u) => u.id === 't1')!.used, 150);
  assert.ok(events.some((e) => e.type === 'exceeded' && e.level === 'task' && e.id === 't1' && !e.refused));
  // another task has its own budget
  assert.equal((await b.request({ tokens: 50, taskId: 't2' })).allowed, true);
  assert.ok(!events.some((e) => e.id === 't2' && e.type === 'exceeded'));
});

test('approval mode pauses, asks the port, and follows the answer', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const asked: ApprovalRequest[] = [];
  let answer = true;
  const approval = {
    requestApproval: async (r: ApprovalRequest) => {
      asked.push(r);
      return answer;
    },
  };
  const b = new TokenBudget({
    agent: { limit: 100, mode: 'approval' },
    approval,
    onEvent,
    sleep: time.sleep,
    clock: time,
  });
  await b.request({ tokens: 90, agentId: 'a' });
  assert.equal((await b.request({ tokens: 20, agentId: 'a', reason: 'call 2' })).allowed, true);
  assert.deepEqual(asked[0], { level: 'agent', id: 'a', used: 90, requested: 20, limit: 100, reason: 'call 2' });
  answer = false;
  assert.deepEqual(await b.request({ tokens: 5, agentId: 'a' }), {
    allowed: false,
    scope: { level: 'agent', id: 'a' },
    reason: 'approval-denied',
  });
  assert.deepEqual(
    events.filter((e) => e.type.startsWith('approval')).map((e) => e.type),
    ['approval-requested', 'approval-granted', 'approval-requested', 'approval-denied'],
  );
  assert.equal(b.usage().find((u) => u.level === 'agent')!.used, 110);
});

test('approval mode without an approver refuses instead of hanging', async () => {
  const b = new TokenBudget({ session: { limit: 10, mode: 'approval' }, sleep: virtualTime().sleep });
  const d = await b.request({ tokens: 11 });
  assert.equal(d.allowed, false);
  assert.equal(!d.allowed && d.reason, 'no-approver');
});

test('a hard limit is checked before asking anyone for approval', async () => {
  let asked = 0;
  const b = new TokenBudget({
    session: { limit: 100, mode: 'hard' },
    task: { limit: 10, mode: 'approval' },
    approval: { requestApproval: async () => (asked++, true) },
    sleep: virtualTime().sleep,
  });
  const d = await b.request({ tokens: 200, taskId: 't' });
  assert.equal(d.allowed, false);
  assert.equal(asked, 0);
});

test('warning fires once when usage crosses 80 %', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const b = new TokenBudget({ session: { limit: 1000, mode: 'soft' }, onEvent, sleep: time.sleep, clock: time });
  for (const n of [500, 299, 1, 50, 50]) await b.request({ tokens: n });
  const warnings = events.filter((e) => e.type === 'warning');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.used, 800);
});

test('backpressure delays 50 / 300 / 750 / 1500 ms at 80 / 85 / 90 / 95 % through the injected sleep', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const b = new TokenBudget({ session: { limit: 1000, mode: 'hard' }, onEvent, sleep: time.sleep, clock: time });
  const delays: number[] = [];
  for (const n of [700, 100, 50, 50, 50, 40]) {
    const d = await b.request({ tokens: n });
    assert.ok(d.allowed);
    delays.push(d.allowed ? d.delayedMs : -1);
  }
  assert.deepEqual(delays, [0, 50, 300, 750, 1500, 1500]);
  assert.deepEqual(time.slept, [50, 300, 750, 1500, 1500]);
  const bp = events.filter((e) => e.type === 'backpressure');
  assert.deepEqual(
    bp.map((e) => e.at),
    [0, 50, 350, 1100, 2600],
  );
});

test('backpressure steps are configurable and validated', async () => {
  const time = virtualTime();
  const b = new TokenBudget({
    session: { limit: 100, mode: 'soft' },
    backpressure: [{ at: 0.5, delayMs: 7 }],
    sleep: time.sleep,
  });
  await b.request({ tokens: 60 });
  assert.deepEqual(time.slept, [7]);
  assert.throws(() => new TokenBudget({ backpressure: [{ at: -1, delayMs: 5 }] }), /threshold/);
  assert.throws(() => new TokenBudget({ session: { limit: -5, mode: 'hard' } }), /session budget/);
  assert.equal(backpressureDelay(0.79, DEFAULT_BACKPRESSURE), 0);
  assert.equal(backpressureDelay(1.2, DEFAULT_BACKPRESSURE), 1500);
});

test('a bad spend amount is rejected with a clear error', async () => {
  const b = new TokenBudget();
  await assert.rejects(b.request({ tokens: -1 }), /tokens must be/);
  await assert.rejects(b.request({ tokens: Number.NaN }), /tokens must be/);
  assert.equal((await b.request({ tokens: 5 })).allowed, true, 'the budget still works after a rejected request');
});

test('a refund gives back a spend that never happened, at every level, never below zero', async () => {
  const time = virtualTime();
  const b = new TokenBudget({ session: { limit: 1000, mode: 'hard' }, sleep: time.sleep, clock: time });
  await b.request({ tokens: 700, taskId: 't' });
  await b.refund({ tokens: 700, taskId: 't' });
  assert.deepEqual(
    b.usage().map((u) => u.used),
    [0, 0],
  );
  await b.refund({ tokens: 50 });
  assert.equal(b.usage()[0]!.used, 0);
  // What was refunded can be spent again under a hard limit.
  assert.equal((await b.request({ tokens: 1000 })).allowed, true);
});

test('a continued session starts from what it spent; new limits apply to the spend so far', async () => {
  const time = virtualTime();
  const b = new TokenBudget({
    session: { limit: 1000, mode: 'hard' },
    sessionUsed: 900,
    sleep: time.sleep,
    clock: time,
  });
  assert.equal((await b.request({ tokens: 200 })).allowed, false);
  await b.setLimits({ session: { limit: 2000, mode: 'hard' } });
  assert.equal((await b.request({ tokens: 200 })).allowed, true);
  await b.setLimits({ session: { limit: 1000, mode: 'soft' } });
  assert.equal((await b.request({ tokens: 200 })).allowed, true, 'soft lets it through');
  await b.setLimits({});
  assert.deepEqual(b.usage()[0], { level: 'session', used: 1300 });
  assert.throws(() => new TokenBudget({ sessionUsed: -1 }), /sessionUsed/);
  assert.throws(() => b.setLimits({ session: { limit: Number.NaN, mode: 'hard' } }), /session budget/);
});

test('an approval limit tells its room until it is approved past, and asks when less than the reserve is left', async () => {
  const time = virtualTime();
  const asked: ApprovalRequest[] = [];
  const b = new TokenBudget({
    session: { limit: 1000, mode: 'approval' },
    approval: { requestApproval: (r) => (asked.push(r), Promise.resolve(true)) },
    sleep: time.sleep,
    clock: time,
  });
  // Below the limit: granted unasked, with what is left (the answer is capped there, not let past it).
  const d = await b.request({ tokens: 600, reserve: 16 });
  assert.deepEqual(d, { allowed: true, delayedMs: 0, room: { level: 'session', tokens: 400, mode: 'approval' } });
  // The prompt fits, but not an answer of the reserve's size: a person is asked first.
  const e = await b.request({ tokens: 390, reserve: 16 });
  assert.equal(asked.length, 1);
  assert.ok(e.allowed && e.room === undefined, 'approved past the limit: no room caps it');
});
