// A summary call is asked of the budget as its model's provider will count the prompt, not by our count:
// a Claude summary model, asked by our o200k count, passed a hard limit by that count's shortfall
// (15,822 billed of 15,000). The summary model's own reported calls scale it, a prior before any.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { REPLY_PRIMING_TOKENS } from '../../../src/core/agent/accounting';
import type { SessionState } from '../../../src/core/agent/session-state';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

const tokenizer = createTokenizer('o200k');

function ourCount(r: ChatRequest): number {
  const tools = r.tools.length === 0 ? 0 : tokenizer.count(JSON.stringify(r.tools)) + REPLY_PRIMING_TOKENS;
  return r.messages.reduce((n, m) => n + tokenizer.countMessage(m), 0) + tools;
}

/** Bills each prompt as `factor` x our count (rounded up); answers write `answer` tokens, or as many as allowed. */
function provider(factor: number, answer: number, summary: boolean): ChatProvider {
  let calls = 0;
  return {
    id: summary ? 'anthropic' : 'openai-compatible',
    async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      const output = Math.min(answer, r.maxOutputTokens ?? answer);
      yield { type: 'usage', usage: { inputTokens: Math.ceil(ourCount(r) * factor), outputTokens: output } };
      if (summary) {
        yield { type: 'text-delta', text: 'USER_CONTEXT: fix the parser\nCOMPLETED: read files' };
        yield { type: 'finish', reason: output < answer ? 'max_tokens' : 'stop' };
        return;
      }
      calls++;
      yield {
        type: 'tool-call',
        call: { id: `t${calls}`, name: 'read_file', arguments: JSON.stringify({ path: `f${calls}.py` }) },
      };
      yield { type: 'finish', reason: 'tool_calls' };
    },
  };
}

function session(factor: number, limit: number, summaryAnswer: number): AgentSession {
  return new AgentSession({
    provider: provider(1, 300, false),
    model: 'gpt-4.1',
    summaryModel: { provider: provider(factor, summaryAnswer, true), model: 'claude-sonnet-4-5' },
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'summary',
    strategyOptions: { contextWindow: 3000, summaryTokens: 400, window: 2 },
    budget: { session: { limit, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
}

function billed(s: SessionState): number {
  const calls = s.calls.reduce((n, c) => n + (c.usage?.inputTokens ?? 0) + c.outputTokens, 0);
  return calls + s.summaryCalls.reduce((n, c) => n + c.inputTokens + c.outputTokens, 0);
}

const task = 'Fix the failing test in src/parser.ts. '.repeat(60);

test('a Claude summary model does not pass a hard budget by our count’s shortfall', async () => {
  const limit = 15_000;
  const agent = session(1.6, limit, 400);
  assert.equal(await agent.send(task), 'budget');
  const s = agent.state();
  assert.ok(billed(s) <= limit, `billed ${billed(s)} of a hard limit of ${limit}`);
  assert.equal(s.spentTokens, billed(s), 'the budget ends at what was billed');
});

test('property: a summary model counting a steady 1-1.62x ours never passes a hard budget', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.double({ min: 1, max: 1.62, noNaN: true }),
      fc.integer({ min: 5_000, max: 30_000 }),
      fc.integer({ min: 50, max: 800 }),
      async (factor, limit, answer) => {
        const agent = session(factor, limit, answer);
        await agent.send(task);
        const s = agent.state();
        assert.ok(billed(s) <= limit, `billed ${billed(s)} of ${limit} (${s.summaryCalls.length} summaries)`);
        assert.equal(s.spentTokens, billed(s));
      },
    ),
    { numRuns: 40 },
  );
});
