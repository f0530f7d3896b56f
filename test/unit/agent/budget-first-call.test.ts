// A session's first call has no report of the provider's count to scale ours by: for a model our
// tokenizer does not count exactly it is scaled by a prior for its family (expected-prompt.ts), so a hard
// budget is not passed on call one (a Claude first call passed an 8,000-token limit: 9,308 billed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { REPLY_PRIMING_TOKENS } from '../../../src/core/agent/accounting';
import { CLAUDE_TOOL_PROMPT } from '../../../src/core/agent/expected-prompt';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

const tokenizer = createTokenizer('o200k');

function ourCount(r: ChatRequest): number {
  const tools = r.tools.length === 0 ? 0 : tokenizer.count(JSON.stringify(r.tools));
  return r.messages.reduce((n, m) => n + tokenizer.countMessage(m), 0) + tools + REPLY_PRIMING_TOKENS;
}

/** Bills every prompt as `factor` x our count plus `added` (Claude's tool prompt); answers fill the cap. */
function provider(factor: number, added: number, answer: number): ChatProvider {
  let calls = 0;
  return {
    id: 'anthropic',
    defaultMaxOutputTokens: 8192,
    async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      calls++;
      const output = Math.min(answer, r.maxOutputTokens ?? answer);
      yield { type: 'usage', usage: { inputTokens: Math.ceil(ourCount(r) * factor) + added, outputTokens: output } };
      yield { type: 'text-delta', text: 'Reading.' };
      yield {
        type: 'tool-call',
        call: { id: `t${calls}`, name: 'read_file', arguments: JSON.stringify({ path: `f${calls}.py` }) },
      };
      yield { type: 'finish', reason: output < answer ? 'max_tokens' : 'tool_use' };
    },
  };
}

function session(p: ChatProvider, model: string, limit: number): AgentSession {
  return new AgentSession({
    provider: p,
    model,
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'raw',
    budget: { session: { limit, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
}

function billed(agent: AgentSession): number {
  return agent.state().calls.reduce((n, c) => n + (c.usage?.inputTokens ?? 0) + c.outputTokens, 0);
}

const task = 'Fix the failing test in src/parser.ts. '.repeat(200);

test("a Claude session's first call does not pass a hard budget by our count's shortfall", async () => {
  const limit = 8000;
  const agent = session(provider(1.25, CLAUDE_TOOL_PROMPT, 6000), 'claude-sonnet-4-5', limit);
  assert.equal(await agent.send(task), 'budget');
  const first = agent.state().calls[0]!;
  assert.ok(first.usage!.inputTokens! + first.outputTokens <= limit, JSON.stringify(first.usage));
  assert.ok(billed(agent) <= limit, `billed ${billed(agent)} of a hard limit of ${limit}`);
  assert.equal(agent.state().spentTokens, billed(agent), 'the budget ends at what was billed');
});

test('an OpenAI model on its own encoding is asked for as counted: its first answer may use all the room', async () => {
  const limit = 8000;
  const agent = session(provider(1, 0, 8000), 'gpt-4.1', limit);
  await agent.send(task);
  const first = agent.state().calls[0]!;
  assert.equal(first.tokensSent + first.outputTokens, limit, 'capped at exactly what our count left');
});

test('property: Claude counting a steady 1-1.62x ours plus its tool prompt never passes a hard budget', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.double({ min: 1, max: 1.62, noNaN: true }),
      fc.integer({ min: 3_000, max: 30_000 }),
      fc.integer({ min: 200, max: 8_000 }),
      fc.integer({ min: 0, max: 400 }),
      async (factor, limit, answer, repeats) => {
        const agent = session(provider(factor, CLAUDE_TOOL_PROMPT, answer), 'anthropic/claude-opus-4.5', limit);
        await agent.send('Fix the parser. '.repeat(repeats + 1));
        assert.ok(billed(agent) <= limit, `billed ${billed(agent)} of ${limit}`);
        assert.equal(agent.state().spentTokens, billed(agent));
      },
    ),
    { numRuns: 40 },
  );
});
