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
