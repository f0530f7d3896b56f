import assert from 'node:assert/strict';
import test from 'node:test';
import { RequestTracker } from '../../src/protocol/rpc';
import { hostRequestTimeout } from '../../src/webview/host';

type Methods = { quick: { params: object; result: number }; probe: { params: object; result: number } };

test('a request waits as long as its method allows, then fails naming the wait', async () => {
  const sent: { id: number; method: string }[] = [];
  const tracker = new RequestTracker<Methods>(
    (m) => sent.push(m),
    (method) => (method === 'probe' ? 400 : 20),
  );
  const quick = tracker.request('quick', {});
  const probe = tracker.request('probe', {});
  await assert.rejects(quick, /'quick' got no answer within 20 ms/);
  // The probe is still waiting after the quick request gave up, and takes its late answer.
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(tracker.settle({ type: 'response', id: sent[1]!.id, ok: true, result: 7 }), true);
  assert.equal(await probe, 7);
});

test("the panel's requests that reach the network or a dialog outwait the host's 10 s probe timeout", () => {
  for (const slow of ['listModels', 'testConnection', 'saveSetup', 'openSession'])
    assert.ok(hostRequestTimeout(slow) > 10_000, slow);
  assert.equal(hostRequestTimeout('stop'), 10_000);
});
