// Must show (issue 10): a session with three user instructions, where every request built by every
// strategy carries all three verbatim and in order, through a real server, retries included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STRATEGY_NAMES } from '../../../src/core/strategies/types';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { startScriptedModelServer, type ScriptStep } from '../../support/scripted-model-server';
import { harness, readSteps } from './helpers';

const instruction = (n: number): string =>
  Array.from({ length: 7 }, (_, i) => `Instruction ${n}, point ${i + 1}: keep the public API of module${n}.`).join(
    '\n',
  );

const keepsWhole = (strategy: string): boolean => strategy === 'raw' || strategy === 'retry-filter';

test('three user instructions reach every call of every strategy verbatim, in order', async () => {
  const work = (n: number): ScriptStep[] => [...readSteps(12), { reply: { text: `Done with ${n}.` } }];
  // The summary model (summary, hybrid, sliding-window) has its own server, so the agent's script stays in step.
  const summaries = await startScriptedModelServer(
    Array.from({ length: 20 }, () => ({ reply: { text: 'USER_CONTEXT: modules\nCOMPLETED: reads\nPENDING: -' } })),
  );
  const summaryModel = { provider: new OpenAICompatibleProvider({ baseURL: summaries.baseURL }), model: 'small' };
  try {
    for (const strategy of STRATEGY_NAMES) {
      // A malformed tool call (filtered retry) and a 500 (plain resend) in the third round.
      const script: ScriptStep[] = [
        ...work(1),
        ...work(2),
        ...readSteps(2),
        { fault: 'malformed-tool-call' },
        { fault: 'server-error' },
        ...work(3),
      ];
      const h = await harness(script, {
        strategy,
        summaryModel,
        // Window 1 masks all but the last turn; 16k makes sliding-window fold and cache-aware move by force.
        // raw and retry-filter send the whole history (over 16k here): raw would stop there, unsent.
        strategyOptions: { window: 1, contextWindow: keepsWhole(strategy) ? 200_000 : 16_000, summaryTokens: 200 },
      });
      try {
        for (const n of [1, 2, 3]) assert.equal(await h.agent.send(instruction(n)), 'completed', `${strategy} #${n}`);
        const requests = h.server.chatRequests();
        assert.equal(requests.length, script.length);
        let given = 0;
        for (const [k, r] of requests.entries()) {
          const users = r.messages.filter((m) => m.role === 'user').map((m) => m.content);
          const expected = [1, 2, 3].map(instruction).filter((text) => users.includes(text));
          // Instructions already given are all there, in the order they were given.
          given = Math.max(given, expected.length);
          assert.equal(expected.length, given, `${strategy}, request ${k + 1}: an instruction is missing`);
          const positions = expected.map((text) => users.indexOf(text));
          assert.deepEqual(
            positions,
            [...positions].sort((a, b) => a - b),
            `${strategy}, request ${k + 1}: order`,
          );
        }
        assert.equal(given, 3, strategy);
        const state = h.agent.state();
        // Each strategy did its work (so the instructions survived it, not its absence).
        const prepared = h.events.flatMap((e) => (e.type === 'context-prepared' ? [e] : []));
        if (['summary', 'sliding-window'].includes(strategy))
          assert.ok(
            prepared.some((e) => e.summarizedTurns > 0),
            `${strategy} summarised`,
          );
        if (['masking', 'hybrid', 'cache-aware'].includes(strategy))
          assert.ok(
            prepared.some((e) => e.masked.length > 0),
            `${strategy} masked`,
          );
        if (strategy === 'retry-filter') assert.ok(prepared.some((e) => e.retry));
        assert.equal(state.messages.filter((m) => m.origin === 'person').length, 3);
      } finally {
        await h.close();
      }
    }
    assert.ok(summaries.stepsUsed > 0, 'a summary was written');
  } finally {
    await summaries.close();
  }
});
