// An approval budget lets nothing pass its limit unasked: below it each call's answer is capped at what it
// leaves (an answer passed a 17,000-token limit before any approval was asked), and an approval names the
// most the call's answer may add, which is then the call's output limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRequest } from '../../../src/core/budget';
import { ANY_MODEL_OUTPUT } from '../../../src/core/agent/output-cap';
import type { ChatBody, ReplyStep } from '../../support/scripted-model-server';
import { createTokenizer } from '../../../src/core/tokens';
import { harness } from './helpers';

const tokenizer = createTokenizer('o200k');

/** Answers of about `tokens` tokens with a tool call, cut where the request says; the prompt as sent. */
const answering = (n: number, tokens: number): ((body: ChatBody) => ReplyStep)[] =>
  Array.from({ length: n }, (_, i) => (body: ChatBody) => ({
    reply: {
      text: 'word '.repeat(Math.max(0, tokens * 4 - 40) / 5),
      toolCalls: [{ name: 'read_file', arguments: { path: `src/file${i}.ts` } }],
    },
    // Leaner than our count (message texts alone), as in budget-output-cap.test.ts: a steady shortfall.
    usage: { promptTokens: body.messages.reduce((n, m) => n + tokenizer.count(m.content ?? ''), 0) },
    honourMaxTokens: true,
  }));

test('an approval budget is not passed before it asks, and an approval names the answer it allows', async () => {
  const limit = 17_000;
  const asks: { request: ApprovalRequest; billed: number }[] = [];
  let billed = 0;
  const h = await harness(answering(10, 3000), {
    budget: {
      session: { limit, mode: 'approval' },
      approval: {
        requestApproval: (request) => {
          asks.push({ request, billed });
          return Promise.resolve(asks.length < 2); // the first is approved, the second denied
        },
      },
    },
  });
  h.agent.on((e) => {
    if (e.type === 'call-finished') billed += (e.record.usage?.inputTokens ?? 0) + e.record.outputTokens;
  });
  try {
    // The answer that reached the limit was cut there; the run stops and says the next call asks.
    assert.equal(await h.agent.send('Go'), 'budget');
    assert.ok(billed <= limit, `billed ${billed} of ${limit} with no approval asked`);
    assert.equal(asks.length, 0);
    const stop = h.events.at(-1)!;
    assert.ok(stop.type === 'stopped' && /next call asks for your approval/.test(stop.message), stop.type);
    assert.equal(await h.agent.send('Go on'), 'budget');
    assert.equal(asks.length, 2, 'asked before the next call, and again after it');
    assert.ok(asks[0]!.billed <= limit, `billed ${asks[0]!.billed} of ${limit} before the first approval`);
    assert.match(asks[0]!.request.reason ?? '', /its answer adds at most 4,096 more/);
    const bodies = h.server.chatRequests();
    const capped = bodies.map((b) => (b.max_tokens ?? b.max_completion_tokens) as number | undefined);
    assert.ok(
      capped.every((c) => c !== undefined && c <= ANY_MODEL_OUTPUT),
      `every call's answer is limited: ${capped.join()}`,
    );
  } finally {
    await h.close();
  }
});
