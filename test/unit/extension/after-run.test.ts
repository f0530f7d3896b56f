// A message sent while a run ends (Stop pressed, or the answer already in) waits for that end instead of
// being refused; one waits at a time, and it is handed over once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AfterRun, STILL_WORKING } from '../../../src/extension/agent/afterRun';

test('a run still working refuses; a stopped or answered one takes the message for when it ends', () => {
  const after = new AfterRun();
  assert.deepEqual(after.offer('now?', { stopped: false, answered: false }), {
    accepted: false,
    reason: STILL_WORKING,
  });
  assert.equal(after.take(), undefined, 'a refused message is not sent later');
  assert.deepEqual(after.offer('do this instead', { stopped: true, answered: false }), { accepted: true });
  const second = after.offer('and this', { stopped: true, answered: false });
  assert.equal(second.accepted, false);
  assert.match(second.reason ?? '', /stopping; the message you sent before goes first/);
  assert.equal(after.take(), 'do this instead');
  assert.equal(after.take(), undefined, 'handed over once');
  assert.deepEqual(after.offer('next', { stopped: false, answered: true }), { accepted: true });
  assert.equal(after.take(), 'next');
});
