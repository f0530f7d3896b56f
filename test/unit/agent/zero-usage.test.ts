// A server that sends a usage object of zeros (a placeholder: it counts nothing) has not reported the
// call: no request has an empty prompt. Taken as reported, the call was billed 0 units and the budget
// counted nothing for it. It is billed by our own count, as a server that sends no usage at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usageFromOpenAI } from '../../../src/core/providers/openai-usage';
import { harness } from './helpers';

test('a usage of zeros from an OpenAI-compatible server is no prompt size', () => {
  const u = usageFromOpenAI({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  assert.equal(u.inputTokens, undefined);
  assert.equal(
    usageFromOpenAI({ prompt_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } }).inputTokens,
    undefined,
  );
  assert.equal(usageFromOpenAI({ prompt_tokens: 12, completion_tokens: 0 }).inputTokens, 12, 'a real count stays');
});

test('a call whose server reported zeros is billed and budgeted by our own count, like one reporting nothing', async () => {
  const zeros = await harness(
    [{ reply: { text: 'Hello there.' }, rawUsage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }],
    {
      budget: { session: { limit: 1_000_000, mode: 'hard' } },
    },
  );
  const none = await harness([{ reply: { text: 'Hello there.' }, rawUsage: {} }], {
    budget: { session: { limit: 1_000_000, mode: 'hard' } },
  });
  try {
    await zeros.agent.send('Hi');
    await none.agent.send('Hi');
    const z = zeros.agent.state().calls[0]!;
    const n = none.agent.state().calls[0]!;
    assert.ok(z.cost > 0, `billed ${z.cost} units`);
    assert.equal(z.cost, n.cost);
    assert.equal(z.billedBy, n.billedBy);
    assert.equal(zeros.agent.state().spentTokens, none.agent.state().spentTokens);
  } finally {
    await zeros.close();
    await none.close();
  }
});
