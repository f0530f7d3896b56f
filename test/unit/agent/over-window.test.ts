// A call whose smallest context is over the window is not sent: the run stops and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, readSteps } from './helpers';

test('when even the instructions and the latest turn do not fit, the run stops with a clear error, unsent', async () => {
  // Each read is ~800 tokens; a 600-token window cannot hold the latest one.
  const h = await harness(readSteps(3), { strategy: 'masking', strategyOptions: { contextWindow: 600 } });
  try {
    const status = await h.agent.send('Read the files.');
    assert.equal(status, 'error');
    assert.equal(h.server.chatRequests().length, 1, 'only the first call (task alone) was sent');
    const stopped = h.events.find((e) => e.type === 'stopped');
    assert.ok(stopped && stopped.type === 'stopped');
    assert.match(stopped.message, /does not fit the model's window/);
    assert.match(stopped.message, /raise the context window/);
  } finally {
    await h.close();
  }
});

test('a window that the masked context fits: the run goes on and every request fits', async () => {
  const h = await harness([...readSteps(12), { reply: { text: 'Done.' } }], {
    strategy: 'masking',
    strategyOptions: { contextWindow: 3_000 },
  });
  try {
    assert.equal(await h.agent.send('Read the files.'), 'completed');
    const sent = h.agent.state().calls.map((c) => c.tokensSent);
    assert.ok(Math.max(...sent) <= 3_000, `largest request ${Math.max(...sent)}`);
  } finally {
    await h.close();
  }
});
