// The approval prompt of a model call counts the last answer's output as used: the call asks the budget for
// it (known only after that answer), and the prompt read "7 of 20,000 tokens used; this call needs 24,021
// more" after a 12,000-token answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRequest } from '../../../src/core/budget';
import { createTokenizer } from '../../../src/core/tokens';
import type { ChatBody, ReplyStep } from '../../support/scripted-model-server';
import { harness } from './helpers';

const tokenizer = createTokenizer('o200k');
const prompt = (b: ChatBody): number => b.messages.reduce((n, m) => n + tokenizer.count(m.content ?? ''), 0);

test("a budget approval prompt counts the last answer's output as used, not as this call's need", async () => {
  const steps = Array.from({ length: 3 }, (_, i) => (body: ChatBody): ReplyStep => ({
    reply: {
      text: 'word '.repeat((12_000 * 4 - 40) / 5),
      toolCalls: [{ name: 'read_file', arguments: { path: `f${i}.ts` } }],
    },
    usage: { promptTokens: prompt(body) },
  }));
  const asked: ApprovalRequest[] = [];
  const h = await harness(steps, {
    budget: {
      session: { limit: 20_000, mode: 'approval' },
      approval: { requestApproval: (r) => (asked.push(r), Promise.resolve(false)) },
    },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'budget');
    const [first] = h.agent.state().calls;
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.used, h.agent.state().spentTokens, 'used: everything spent so far');
    assert.ok(asked[0]!.used >= first!.outputTokens);
    assert.ok(asked[0]!.requested < 12_000, `this call's prompt only: ${asked[0]!.requested}`);
  } finally {
    await h.close();
  }
});
