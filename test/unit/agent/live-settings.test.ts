// Settings changed while a session lives (strategy, its options, tokenizer, budget) apply from the next
// model call on, in the middle of a run too; the conversation and what was spent carry over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { createTokenizer } from '../../../src/core/tokens';
import { startScriptedModelServer } from '../../support/scripted-model-server';
import { harness, readSteps } from './helpers';

test('a strategy and window changed mid-run apply from the next call; the conversation goes on', async () => {
  const h = await harness([...readSteps(6), { reply: { text: 'Done.' } }], { strategy: 'raw' });
  try {
    h.agent.on((e) => {
      if (e.type === 'call-finished' && e.call === 3)
        h.agent.reconfigure({ strategy: 'masking', strategyOptions: { window: 1 } });
    });
    assert.equal(await h.agent.send('Go'), 'completed');
    const prepared = h.events.flatMap((e) => (e.type === 'context-prepared' ? [e] : []));
    assert.deepEqual(
      prepared.map((e) => e.strategy),
      ['raw', 'raw', 'raw', 'masking', 'masking', 'masking', 'masking'],
    );
    assert.equal(prepared[2]!.masked.length, 0);
    assert.ok(prepared.at(-1)!.masked.length > 0, 'masking with window 1 masks');
    assert.equal(h.agent.state().strategy, 'masking');
    assert.equal(
      h.server
        .chatRequests()
        .at(-1)!
        .messages.filter((m) => m.role === 'tool').length,
      6,
    );
  } finally {
    await h.close();
  }
});

test('the same settings again change nothing: a strategy keeps its state (no second summary)', async () => {
  const summaries = await startScriptedModelServer(
    Array.from({ length: 5 }, () => ({ reply: { text: 'USER_CONTEXT: go\nCOMPLETED: reads' } })),
  );
  const h = await harness([...readSteps(33), { reply: { text: 'Done.' } }], {
    strategy: 'summary',
    summaryModel: { provider: new OpenAICompatibleProvider({ baseURL: summaries.baseURL }), model: 'small' },
  });
  try {
    h.agent.on((e) => {
      if (e.type === 'call-finished') h.agent.reconfigure({ strategy: 'summary', strategyOptions: { window: 10 } });
    });
    assert.equal(await h.agent.send('Go'), 'completed');
    // A strategy rebuilt at every call would fold the same turns again on each of the last calls.
    assert.equal(h.agent.state().summaryCalls.length, 1);
    assert.equal(summaries.chatRequests().length, 1);
  } finally {
    await h.close();
    await summaries.close();
  }
});

test('a budget lowered mid-run stops it at the next call; the spend so far counts', async () => {
  const h = await harness([...readSteps(10), { reply: { text: 'Done.' } }], {
    budget: { session: { limit: 1_000_000, mode: 'hard' } },
  });
  try {
    h.agent.on((e) => {
      if (e.type === 'call-finished' && e.call === 2)
        h.agent.reconfigure({ budget: { session: { limit: 1, mode: 'hard' } } });
    });
    assert.equal(await h.agent.send('Go'), 'budget');
    assert.equal(h.server.chatRequests().length, 2);
  } finally {
    await h.close();
  }
});

test('a tokenizer changed mid-run counts the next call with it; the estimate is labelled', async () => {
  // o200k counts a GPT-4o model exactly (another family's tokens it only estimates).
  const h = await harness([...readSteps(2), { reply: { text: 'Done.' } }], { model: 'gpt-4o' });
  try {
    h.agent.on((e) => {
      if (e.type === 'call-finished' && e.call === 1) h.agent.reconfigure({ tokenizer: createTokenizer('chars4') });
    });
    assert.equal(await h.agent.send('Go'), 'completed');
    const estimated = h.events.flatMap((e) => (e.type === 'context-prepared' ? [e.estimated] : []));
    assert.deepEqual(estimated, [false, true, true]);
  } finally {
    await h.close();
  }
});

test('a session rebuilt from its state (model switch) keeps what its budget counted', async () => {
  const first = await harness([...readSteps(2), { reply: { text: 'Done.' } }], {
    budget: { session: { limit: 100_000, mode: 'hard' } },
  });
  let state;
  try {
    await first.agent.send('Go');
    state = first.agent.state();
  } finally {
    await first.close();
  }
  // The budget counts each prompt as the provider reported it (the scripted server: chars / 4).
  const spent = state.calls.reduce((n, c) => n + (c.usage?.inputTokens ?? c.tokensSent) + c.outputTokens, 0);
  assert.equal(state.spentTokens, spent);
  // A limit just above what was spent leaves no room for the next call of the continued conversation.
  const next = await harness([{ reply: { text: 'never' } }], {
    restore: state,
    budget: { session: { limit: spent + 10, mode: 'hard' } },
  });
  try {
    assert.equal(await next.agent.send('And now?'), 'budget');
    assert.equal(next.server.chatRequests().length, 0);
    assert.equal(next.agent.state().spentTokens, spent);
  } finally {
    await next.close();
  }
});

test('options no strategy accepts end the run with a clear error and leave the strategy in place', async () => {
  const h = await harness([...readSteps(1), { reply: { text: 'Done.' } }], { strategy: 'masking' });
  try {
    h.agent.reconfigure({ strategy: 'hybrid', strategyOptions: { window: 0 } });
    assert.equal(await h.agent.send('Go'), 'error');
    const stopped = h.events.at(-1)!;
    assert.ok(stopped.type === 'stopped' && /window must be an integer >= 1/.test(stopped.message));
    assert.equal(h.agent.state().strategy, 'masking');
    // Good settings afterwards work.
    h.agent.reconfigure({ strategy: 'hybrid', strategyOptions: { window: 2 } });
    assert.equal(await h.agent.send('Go on'), 'completed');
    assert.equal(h.agent.state().strategy, 'hybrid');
  } finally {
    await h.close();
  }
});
