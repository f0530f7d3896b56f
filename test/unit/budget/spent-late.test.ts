// A spend can carry tokens already spent but asked for late (a model call asks with the last answer's
// output, known only after that call). A person asked to approve must see them as used, not as what this
// call needs: "7 of 20,000 tokens used; this call needs 24,021 more" where 12,000 of that was the last answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBudget, type ApprovalRequest } from '../../../src/core/budget';
import { recorder, virtualTime } from './helpers';

test('an approval prompt shows tokens spent late as used, and asks only for what this spend needs', async () => {
  const { events, onEvent } = recorder();
  const time = virtualTime();
  const asked: ApprovalRequest[] = [];
  const b = new TokenBudget({
    session: { limit: 20_000, mode: 'approval' },
    approval: { requestApproval: (r) => (asked.push(r), Promise.resolve(true)) },
    onEvent,
    sleep: time.sleep,
    clock: time,
  });
  await b.request({ tokens: 7 });
  await b.request({ tokens: 12_000 + 12_021, spent: 12_000 });
  assert.equal(asked.length, 1);
  assert.equal(asked[0]!.used, 12_007);
  assert.equal(asked[0]!.requested, 12_021);
  const shown = events.filter((e) => e.type === 'exceeded' || e.type.startsWith('approval'));
  assert.ok(shown.length === 3, shown.map((e) => e.type).join());
  for (const e of shown) assert.ok('requested' in e && e.used === 12_007 && e.requested === 12_021, JSON.stringify(e));
  assert.equal(b.usage()[0]!.used, 24_028, 'the whole spend is counted');
});

test('a hard refusal reports the same split', async () => {
  const { events, onEvent } = recorder();
  const b = new TokenBudget({ session: { limit: 1_000, mode: 'hard' }, onEvent, sleep: virtualTime().sleep });
  await b.request({ tokens: 100 });
  const d = await b.request({ tokens: 1_200, spent: 300 });
  assert.equal(d.allowed, false);
  const ex = events.find((e) => e.type === 'exceeded');
  assert.ok(ex && ex.type === 'exceeded' && ex.used === 400 && ex.requested === 900, JSON.stringify(ex));
});
