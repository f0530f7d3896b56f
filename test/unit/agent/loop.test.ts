import assert from 'node:assert/strict';
import { test } from 'node:test';
import { harness, readSteps } from './helpers';

test('runs tool calls over many turns and ends when the model answers without tools', async () => {
  const h = await harness([...readSteps(20), { reply: { text: 'All done.' } }], {
    strategy: 'masking',
    strategyOptions: { window: 5 },
  });
  try {
    const status = await h.agent.send('Fix the bug');
    assert.equal(status, 'completed');
    const state = h.agent.state();
    assert.equal(state.turns, 21);
    assert.equal(state.messages.filter((m) => m.role === 'tool').length, 20);
    assert.equal(h.server.chatRequests().length, 21);
    const last = h.server.chatRequests().at(-1)!;
    const toolMsgs = last.messages.filter((m) => m.role === 'tool');
    const masked = toolMsgs.filter((m) => (m.content ?? '').startsWith('Old environment output: (40 lines omitted'));
    assert.equal(masked.length, 15, 'observations older than the last 5 turns are masked in the request sent');
    assert.ok(toolMsgs.at(-1)!.content!.includes('src/file19.ts:1:'));
    const prepared = h.events.filter((e) => e.type === 'context-prepared');
    const lastPrepared = prepared.at(-1)!;
    assert.equal(lastPrepared.type, 'context-prepared');
    if (lastPrepared.type === 'context-prepared') {
      assert.equal(lastPrepared.masked.length, 15);
      assert.ok(lastPrepared.tokensSent < lastPrepared.rawHistoryTokens);
    }
    assert.equal(h.events.at(-1)!.type, 'done');
  } finally {
    await h.close();
  }
});

/** Calls whose request does not start with the whole previous request (the prompt cache is broken there). */
function prefixBreaks(requests: { messages: unknown[] }[]): number {
  let breaks = 0;
  for (let i = 1; i < requests.length; i++) {
    const prev = requests[i - 1]!.messages;
    const next = requests[i]!.messages;
    if (!prev.every((m, j) => JSON.stringify(m) === JSON.stringify(next[j]))) breaks++;
  }
  return breaks;
}

test('default cache-aware: masks old observations yet breaks the cached prefix far less often than masking', async () => {
  const run = async (strategy?: 'masking') => {
    const h = await harness([...readSteps(60), { reply: { text: 'Done.' } }], {
      ...(strategy ? { strategy } : {}),
      strategyOptions: { window: 10 },
    });
    try {
      assert.equal(await h.agent.send('Go'), 'completed');
      const reqs = h.server.chatRequests();
      const masked = reqs.at(-1)!.messages.filter((m) => m.content?.startsWith('Old environment output:')).length;
      const prepared = h.events.find((e) => e.type === 'context-prepared');
      return {
        breaks: prefixBreaks(reqs),
        masked,
        strategy: prepared?.type === 'context-prepared' ? prepared.strategy : '',
      };
    } finally {
      await h.close();
    }
  };
  const cacheAware = await run();
  const masking = await run('masking');
  assert.equal(cacheAware.strategy, 'cache-aware');
  assert.ok(cacheAware.masked > 0, 'cache-aware masked something');
  assert.equal(masking.masked, 50);
  assert.ok(cacheAware.breaks < masking.breaks / 3, `${cacheAware.breaks} vs ${masking.breaks}`);
});
