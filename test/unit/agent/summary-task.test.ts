// The summary model is given the person's task (and earlier instructions), not only the turns it folds:
// without it the first checkpoint's USER_CONTEXT could only guess. Real scripted servers, the real provider.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { startScriptedModelServer } from '../../support/scripted-model-server';
import { harness, readSteps } from './helpers';

const TASK = 'Rename compute() to evaluate() everywhere; keep the public API of module7.';

for (const strategy of ['summary', 'hybrid', 'sliding-window'] as const) {
  test(`${strategy}: the first summary request carries the task`, async () => {
    const summaries = await startScriptedModelServer(
      Array.from({ length: 10 }, () => ({ reply: { text: 'USER_CONTEXT: rename\nCOMPLETED: -\nPENDING: -' } })),
    );
    const h = await harness([...readSteps(55), { reply: { text: 'Done.' } }], {
      strategy,
      summaryModel: { provider: new OpenAICompatibleProvider({ baseURL: summaries.baseURL }), model: 'small' },
      // 8k makes sliding-window fold early; summary and hybrid fold by turn count.
      strategyOptions: { summaryTokens: 100, contextWindow: 8_000 },
    });
    try {
      assert.equal(await h.agent.send(TASK), 'completed');
      const first = summaries.chatRequests()[0];
      assert.ok(first, 'a summary was asked for');
      const prompt = first.messages.map((m) => m.content ?? '').join('\n');
      assert.ok(prompt.includes(TASK), 'the task is in the summary request');
      assert.ok(!prompt.includes('the task is in the turns'));
    } finally {
      await h.close();
      await summaries.close();
    }
  });
}
