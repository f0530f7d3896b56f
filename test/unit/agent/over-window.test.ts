// A call whose smallest context is over the window is not sent: the run stops and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, readSteps } from './helpers';

test('when even the instructions and the latest turn do not fit, the run stops with a clear error, unsent', async () => {
  // Each read is ~800 tokens; a 600-token window cannot hold the latest one.
  for (const strategy of ['masking', 'sliding-window', 'raw'] as const) {
    const h = await harness(readSteps(3), { strategy, strategyOptions: { contextWindow: 600 } });
    try {
      const status = await h.agent.send('Read the files.');
      assert.equal(status, 'error', strategy);
      assert.equal(h.server.chatRequests().length, 1, `${strategy}: only the first call (task alone) was sent`);
      const stopped = h.events.find((e) => e.type === 'stopped');
      assert.ok(stopped && stopped.type === 'stopped', strategy);
      assert.match(stopped.message, /does not fit the model's window/, strategy);
      assert.match(stopped.message, /raise the context window/, strategy);
      // raw masks nothing: the stop says so, and that a strategy which masks would help.
      if (strategy === 'raw') assert.match(stopped.message, /sent whole \(the raw strategy\).*masks or summarizes/s);
      else assert.match(stopped.message, /even with the older turns masked or summarized/, strategy);
    } finally {
      await h.close();
    }
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

test('after a stop over the window, the next message goes through: the unanswered outputs are masked, never the messages', async () => {
  // The one read (~800 tokens) does not fit a 600-token window; the person's follow-ups do.
  for (const strategy of ['masking', 'cache-aware', 'hybrid', 'summary', 'sliding-window'] as const) {
    // Spare replies: summary's fold of the first turn asks the model for a summary.
    const replies = ['Done.', 'Summary of the read.', 'Again.'].map((text) => ({ reply: { text } }));
    const h = await harness([...readSteps(1), ...replies], {
      strategy,
      strategyOptions: { contextWindow: 600 },
    });
    try {
      assert.equal(await h.agent.send('Read the files.'), 'error', strategy);
      assert.equal(await h.agent.send('Go on without that file.'), 'completed', strategy);
      // The answer to the follow-up saw the read masked (summary: the only turn it could not fold).
      const read = h.server
        .chatRequests()
        .at(-1)!
        .messages.find((m) => m.role === 'tool');
      assert.match(String(read?.content), /^Old environment output: \(40 lines omitted/, strategy);
      assert.equal(await h.agent.send('And once more.'), 'completed', strategy);
      const contents = h.server
        .chatRequests()
        .at(-1)!
        .messages.map((m) => String(m.content ?? ''));
      for (const said of ['Read the files.', 'Go on without that file.', 'And once more.'])
        assert.ok(contents.includes(said), `${strategy}: "${said}" is sent verbatim`);
      const sent = h.agent.state().calls.map((c) => c.tokensSent);
      assert.ok(Math.max(...sent) <= 600, `${strategy}: largest request ${Math.max(...sent)}`);
    } finally {
      await h.close();
    }
  }
});

test('a message too large for the window on its own is named as the cause, with what to do', async () => {
  const h = await harness([{ reply: { text: 'Unused.' } }], {
    strategy: 'hybrid',
    strategyOptions: { contextWindow: 2_000 },
  });
  try {
    assert.equal(await h.agent.send('word '.repeat(3_000)), 'error');
    assert.equal(h.server.chatRequests().length, 0, 'nothing was sent');
    const stopped = h.events.find((e) => e.type === 'stopped');
    assert.ok(stopped && stopped.type === 'stopped');
    assert.match(stopped.message, /Your message alone needs 3,0\d\d tokens/);
    assert.match(stopped.message, /it was not sent.*Send it shorter, or save the text to a file/s);
    assert.doesNotMatch(stopped.message, /pick a strategy that summarizes/, 'a summary would not help');
  } finally {
    await h.close();
  }
});
