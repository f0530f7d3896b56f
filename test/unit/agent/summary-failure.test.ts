// A summary model that fails must not end the run: transient failures are retried like model calls, and
// when summarizing still fails the call goes ahead without a new summary, with a warning the user sees.
// A failed summary call gives its budget spend back. Real scripted servers, the real provider.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { SessionState } from '../../../src/core/agent/session-state';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { startScriptedModelServer, type ScriptStep } from '../../support/scripted-model-server';
import { harness, readSteps } from './helpers';

const CHECKPOINT = 'USER_CONTEXT: rename\nCOMPLETED: read 21 files\nPENDING: -\nCODE_STATE: src/';
// 31 turns done before the 32nd call: the summary strategy folds the oldest 21 there.
// A last step for a follow-up message.
const script = (): ScriptStep[] => [...readSteps(40), { reply: { text: 'Done.' } }, { reply: { text: 'Still done.' } }];

const warningsOf = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e] : []));
const stopsOf = (events: AgentEvent[]) => events.filter((e) => e.type === 'stopped');

/**
 * With no summary call answered, the budget counted exactly what the billed model calls sent (as the provider
 * reported each prompt) and received.
 */
function assertBudgetMatchesModelCalls(state: SessionState): void {
  assert.equal(state.summaryCalls.length, 0);
  const calls = state.calls
    .filter((c) => c.cost > 0)
    .reduce((n, c) => n + (c.usage?.inputTokens ?? c.tokensSent) + c.outputTokens, 0);
  assert.equal(state.spentTokens, calls);
}

async function withSummaryModel(
  summarySteps: ScriptStep[],
  use: (h: Awaited<ReturnType<typeof harness>>, summaryRequests: () => number) => Promise<void>,
  timeoutMs = 10_000,
): Promise<void> {
  const summaries = await startScriptedModelServer(summarySteps);
  const provider = new OpenAICompatibleProvider({ baseURL: summaries.baseURL, timeoutMs });
  const h = await harness(script(), {
    strategy: 'summary',
    summaryModel: { provider, model: 'small' },
    strategyOptions: { summaryTokens: 100 },
    budget: { session: { limit: 1e9, mode: 'hard' } },
  });
  try {
    await use(h, () => summaries.chatRequests().length);
  } finally {
    await h.close();
    await summaries.close();
  }
}

test('a 500 from the summary model is retried like a model call, and its summary is used', async () => {
  let spentAtOnce = 0;
  await withSummaryModel([{ reply: { text: CHECKPOINT } }], async (h) => {
    assert.equal(await h.agent.send('Rename compute() everywhere.'), 'completed');
    spentAtOnce = h.agent.state().spentTokens!;
  });
  await withSummaryModel([{ fault: 'server-error' }, { reply: { text: CHECKPOINT } }], async (h, asked) => {
    assert.equal(await h.agent.send('Rename compute() everywhere.'), 'completed');
    assert.equal(asked(), 2);
    assert.equal(h.server.chatRequests().length, 41);
    const last = h.server.chatRequests().at(-1)!;
    assert.ok(last.messages.some((m) => m.content === `Checkpoint for the last 21 turns:\n${CHECKPOINT}`));
    assert.deepEqual(warningsOf(h.events), []);
    const state = h.agent.state();
    assert.equal(state.summaryCalls.length, 1);
    assert.equal(state.spentTokens, spentAtOnce, 'the failed attempt left nothing in the budget');
  });
});

for (const [what, fault] of [
  ['keeps answering 500', { fault: 'server-error' }],
  ['returns a blank summary', { reply: { text: '   ' } }],
  ['never answers (timeouts)', { fault: 'hang' }],
] as const) {
  test(`a summary model that ${what} does not stop the run: a warning, and every call goes ahead`, async () => {
    const steps = Array.from({ length: 40 }, (): ScriptStep => fault);
    await withSummaryModel(
      steps,
      async (h, asked) => {
        assert.equal(await h.agent.send('Rename compute() everywhere.'), 'completed');
        assert.equal(await h.agent.send('Please check again.'), 'completed', 'a later message works too');
        assert.equal(h.server.chatRequests().length, script().length, 'the model server got every step');
        assert.deepEqual(stopsOf(h.events), []);
        const warnings = warningsOf(h.events);
        assert.ok(warnings.length > 0, 'the user is told');
        assert.ok(warnings.every((w) => /summar/i.test(w.message) && w.turn >= 32));
        // A broken summary model is not asked on every call: it rests for a few calls after failing.
        assert.ok(asked() < 10 * 4, `summary requests: ${asked()}`);
        // Nothing was folded: the model still sees every turn.
        const last = h.server.chatRequests().at(-1)!;
        assert.ok(!last.messages.some((m) => m.content?.startsWith('Checkpoint for')));
        assert.equal(last.messages.filter((m) => m.role === 'tool').length, 40);
        // A blank summary was answered (and billed); a failed call was not.
        assert.equal(h.agent.state().summaryCalls.length, 'fault' in fault ? 0 : asked());
        if ('fault' in fault) assertBudgetMatchesModelCalls(h.agent.state());
      },
      'fault' in fault && fault.fault === 'hang' ? 300 : 10_000,
    );
  });
}

test('a Stop while the summary model works stops the run: no warning, no call goes ahead', async () => {
  const ac = new AbortController();
  const stopOnArrival: ScriptStep = () => {
    ac.abort();
    return { fault: 'hang' };
  };
  await withSummaryModel([stopOnArrival], async (h, asked) => {
    assert.equal(await h.agent.send('Rename compute() everywhere.', ac.signal), 'aborted');
    assert.equal(asked(), 1, 'a Stop is not retried');
    assert.equal(h.server.chatRequests().length, 31);
    assert.deepEqual(warningsOf(h.events), []);
    assertBudgetMatchesModelCalls(h.agent.state());
  });
});

test('a failed summary never lets a request over the window through: the run stops, and the next message tries again', async () => {
  for (const strategy of ['summary', 'sliding-window'] as const) {
    const summaries = await startScriptedModelServer(
      Array.from({ length: 80 }, (): ScriptStep => ({ fault: 'server-error' })),
    );
    const provider = new OpenAICompatibleProvider({ baseURL: summaries.baseURL });
    // The 40 reads grow past 6,000 tokens: only a summary (which keeps failing) would bring them under.
    const h = await harness(script(), {
      strategy,
      summaryModel: { provider, model: 'small' },
      strategyOptions: { contextWindow: 6_000, summaryTokens: 100 },
    });
    try {
      assert.equal(await h.agent.send('Rename compute() everywhere.'), 'error', strategy);
      const stopped = stopsOf(h.events).at(-1);
      assert.ok(stopped?.type === 'stopped');
      assert.match(stopped.message, /without a new summary of the older turns it needs [\d,]+ tokens/, strategy);
      assert.match(stopped.message, /Summarizing the older turns failed \(.*HTTP 500.*\)/, strategy);
      // The stop is the whole story: no "goes on without a summary" warning for the call it did not send.
      const goesOn = warningsOf(h.events).filter((w) => w.turn > stopped.turns);
      assert.deepEqual(goesOn, [], `${strategy}: ${goesOn.map((w) => w.message).join(' | ')}`);
      const asked = summaries.chatRequests().length;
      // The next message does not wait out the rest: the summary model is asked again at once.
      assert.equal(await h.agent.send('Please go on.'), 'error', strategy);
      assert.ok(summaries.chatRequests().length > asked, `${strategy}: summarizing was tried again`);
      const sent = h.agent.state().calls.map((c) => c.tokensSent);
      assert.ok(Math.max(...sent) <= 6_000, `${strategy}: largest request ${Math.max(...sent)}`);
    } finally {
      await h.close();
      await summaries.close();
    }
  }
});
