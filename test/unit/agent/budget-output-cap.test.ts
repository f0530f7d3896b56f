// A hard budget caps each call's output at what it leaves after the prompt: the output is only known after
// the call, and a budget that asked for it with the next call was passed by the last answer it allowed
// (a 17,000-token hard limit: 19,920 spent with 3,000-token answers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BUDGET_CUT_CALL_TEXT } from '../../../src/core/agent/stop-reason';
import { ANY_MODEL_OUTPUT } from '../../../src/core/agent/output-cap';
import { AgentSession } from '../../../src/core/agent/session';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { ToolRegistry, type AgentTool } from '../../../src/core/agent/tool-registry';
import type { ChatBody, ReplyStep } from '../../support/scripted-model-server';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool, harness } from './helpers';

const tokenizer = createTokenizer('o200k');

/** The prompt as a provider with a leaner count than ours reports it (message texts alone). */
function reportedPrompt(body: ChatBody): number {
  return body.messages.reduce((n, m) => n + tokenizer.count(m.content ?? ''), 0);
}

/** Answers of about `tokens` tokens (4 characters each) and a tool call, cut where the request says. */
function answering(sizes: readonly number[], honour = true): ((body: ChatBody, i: number) => ReplyStep)[] {
  return sizes.map((tokens, i) => (body: ChatBody) => ({
    reply: {
      text: 'word '.repeat(Math.max(0, tokens * 4 - 40) / 5),
      toolCalls: [{ name: 'read_file', arguments: { path: `src/file${i}.ts` } }],
    },
    usage: { promptTokens: reportedPrompt(body) },
    honourMaxTokens: honour,
  }));
}

/** What the server billed: prompt and output of every call. */
function billed(agent: AgentSession): number {
  return agent.state().calls.reduce((n, c) => n + (c.usage?.inputTokens ?? 0) + c.outputTokens, 0);
}

test('a hard budget is not passed by the last answer it allows (3,000-token answers, limit 17,000)', async () => {
  const limit = 17_000;
  const h = await harness(answering(Array(10).fill(3000)), { budget: { session: { limit, mode: 'hard' } } });
  try {
    assert.equal(await h.agent.send('Go'), 'budget');
    assert.ok(billed(h.agent) <= limit, `billed ${billed(h.agent)} of a hard limit of ${limit}`);
    assert.ok(h.agent.state().spentTokens! <= limit, `spent ${h.agent.state().spentTokens}`);
    const capped = h.server.chatRequests().filter((b) => b.max_tokens !== undefined);
    assert.ok(capped.length > 0, 'the last call carries the cap');
    assert.ok(capped.every((b) => (b.max_tokens as number) <= ANY_MODEL_OUTPUT));
    // The answer cut at the cap is kept, the budget is named as what cut it, and the run stops.
    const warning = h.events.find((e) => e.type === 'warning' && /session budget ran out/.test(e.message));
    assert.ok(warning, 'a warning names the budget as what cut the answer');
    assert.match(h.agent.messages.at(-1)!.content, /^word word/);
    const last = h.events.at(-1)!;
    assert.ok(last.type === 'stopped' && last.reason === 'budget', JSON.stringify(last));
    assert.equal(h.server.chatRequests().length, h.agent.state().calls.length, 'no call after the cut one');
  } finally {
    await h.close();
  }
});

/** Writes a file: long arguments, a short result. */
const writeTool: AgentTool = {
  name: 'write_file',
  description: 'Writes a file',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  run: () => Promise.resolve({ ok: true, text: 'Written.' }),
};

test('a tool call the budget cut is not run, and the model is told the budget ran out', async () => {
  const writing = Array.from({ length: 6 }, (_, i) => (body: ChatBody): ReplyStep => ({
    reply: {
      text: 'Writing.',
      toolCalls: [{ name: 'write_file', arguments: { path: `f${i}.ts`, content: 'const x = 1;\n'.repeat(900) } }],
    },
    usage: { promptTokens: reportedPrompt(body) },
    honourMaxTokens: true,
  }));
  const h = await harness(writing, {
    tools: new ToolRegistry([writeTool]),
    budget: { session: { limit: 20_000, mode: 'hard' } },
  });
  const ran: string[] = [];
  h.agent.on((e) => {
    if (e.type === 'tool-call-finished') ran.push(e.status);
  });
  try {
    assert.equal(await h.agent.send('Go'), 'budget');
    assert.ok(billed(h.agent) <= 20_000, `billed ${billed(h.agent)}`);
    assert.ok(ran.length > 1 && ran.slice(0, -1).every((s) => s === 'ok'), ran.join());
    assert.equal(ran.at(-1), 'invalid', 'the cut call was not run');
    assert.equal(h.agent.messages.at(-1)?.content, BUDGET_CUT_CALL_TEXT);
    const warning = h.events.find((e) => e.type === 'warning' && /budget ran out/.test(e.message));
    assert.ok(warning && warning.type === 'warning' && /was not run/.test(warning.message));
  } finally {
    await h.close();
  }
});

test('each capped request asks for no more than the budget leaves after its prompt', async () => {
  const limit = 16_000;
  const h = await harness(answering(Array(10).fill(2500)), { budget: { session: { limit, mode: 'hard' } } });
  try {
    await h.agent.send('Go');
    const calls = h.agent.state().calls;
    const bodies = h.server.chatRequests();
    assert.ok(
      bodies.some((b) => b.max_tokens !== undefined),
      'the calls near the limit are capped',
    );
    let before = 0; // spent before each call, as billed
    for (const [i, c] of calls.entries()) {
      const cap = bodies[i]!.max_tokens as number | undefined;
      if (cap !== undefined) assert.ok(before + c.tokensSent + cap <= limit, `call ${i + 1}: cap ${cap}`);
      before += c.usage!.inputTokens! + c.outputTokens;
    }
  } finally {
    await h.close();
  }
});

test('a call the budget leaves too few tokens for an answer is not sent', async () => {
  // The first prompt's size by our count, from a run without a hard limit.
  // An OpenAI model on its own encoding: its prompt is asked for as counted (no first-call prior).
  const probe = await harness(answering([100]), { maxTurns: 1, model: 'gpt-4.1' });
  let prompt: number;
  try {
    await probe.agent.send('Go');
    prompt = probe.agent.state().calls[0]!.tokensSent;
  } finally {
    await probe.close();
  }
  const h = await harness(answering([100]), {
    model: 'gpt-4.1',
    budget: { session: { limit: prompt + 10, mode: 'hard' } },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'budget');
    assert.equal(h.server.chatRequests().length, 0);
    assert.equal(h.agent.state().spentTokens, 0, 'the prompt of a call never sent is given back');
    const last = h.events.at(-1)!;
    assert.ok(last.type === 'stopped' && /10 tokens are left after the prompt/.test(last.message), last.type);
  } finally {
    await h.close();
  }
});

for (const [model, own] of [
  ['scripted', ANY_MODEL_OUTPUT],
  ['gpt-4.1', 32_768],
] as const)
  test(`with no output limit configured, a hard budget caps ${model}'s answers (12,000 tokens, limit 30,000)`, async () => {
    // An OpenAI-compatible server sends no limit of its own: the model writes as much as it likes.
    const limit = 30_000;
    const h = await harness(answering(Array(6).fill(12_000)), { model, budget: { session: { limit, mode: 'hard' } } });
    try {
      await h.agent.send('Go');
      assert.ok(billed(h.agent) <= limit, `billed ${billed(h.agent)} of a hard limit of ${limit}`);
      assert.ok(h.agent.state().spentTokens! <= limit, `spent ${h.agent.state().spentTokens}`);
      const caps = h.server.chatRequests().map((b) => b.max_tokens as number | undefined);
      assert.ok(
        caps.every((c) => c !== undefined && c <= own),
        `every request carries a cap of at most ${own}: ${caps.join()}`,
      );
    } finally {
      await h.close();
    }
  });

test('property: a server that honours the cap never lets a hard budget be passed', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 2_000, max: 30_000 }),
      fc.array(fc.integer({ min: 2_000, max: 20_000 }), { minLength: 12, maxLength: 12 }),
      fc.option(fc.integer({ min: 200, max: 8_000 }), { nil: undefined }),
      fc.constantFrom('scripted', 'gpt-4o', 'openai/gpt-4.1-mini', 'gpt-4o-2024-05-13'),
      async (limit, sizes, configured, model) => {
        // A model writes no more than the configured limit; with none, as much as it likes.
        const own = configured ?? Infinity;
        const h = await harness(answering(sizes.map((n) => Math.min(n, own))), {
          model,
          budget: { session: { limit, mode: 'hard' } },
          ...(configured !== undefined ? { maxOutputTokens: configured } : {}),
          maxTurns: 12,
        });
        try {
          await h.agent.send('Go');
          assert.ok(billed(h.agent) <= limit, `billed ${billed(h.agent)} of ${limit}`);
          assert.ok(h.agent.state().spentTokens! <= limit);
        } finally {
          await h.close();
        }
      },
    ),
    { numRuns: 25 },
  );
});

test('without a hard budget no output limit is sent to an OpenAI-compatible server', async () => {
  const h = await harness(answering([100, 100]), { model: 'gpt-4.1', maxTurns: 2 });
  try {
    await h.agent.send('Go');
    const bodies = h.server.chatRequests();
    assert.equal(bodies.length, 2);
    assert.ok(bodies.every((b) => b.max_tokens === undefined && b.max_completion_tokens === undefined));
  } finally {
    await h.close();
  }
});

/** Records each request's output limit; answers with 20 tokens of usage and one tool call (no tools: a summary). */
function recordingProvider(limits: (number | undefined)[], summaries: (number | undefined)[]): ChatProvider {
  let n = 0;
  return {
    id: 'anthropic',
    defaultMaxOutputTokens: 8192,
    async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      if (r.tools.length === 0) {
        summaries.push(r.maxOutputTokens);
        yield { type: 'text-delta', text: 'USER_CONTEXT: fix\nCOMPLETED: read files' };
        return;
      }
      limits.push(r.maxOutputTokens);
      n++;
      yield { type: 'usage', usage: { outputTokens: 20 } };
      yield {
        type: 'tool-call',
        call: { id: `t${n}`, name: 'read_file', arguments: JSON.stringify({ path: `f${n}` }) },
      };
    },
  };
}

test("a provider's own output limit comes down to what the budget leaves", async () => {
  const limits: (number | undefined)[] = [];
  const agent = new AgentSession({
    provider: recordingProvider(limits, []),
    model: 'claude-sonnet-4-5',
    tools: new ToolRegistry([echoTool]),
    tokenizer,
    budget: { session: { limit: 12_000, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
  assert.equal(await agent.send('Go'), 'budget');
  assert.equal(limits[0], 8192, 'room enough: the default');
  assert.ok(
    limits.some((l) => l !== undefined && l < 8192),
    limits.join(),
  );
  const calls = agent.state().calls;
  for (const [i, l] of limits.entries())
    if (l !== undefined && l !== 8192) assert.ok(calls[i]!.budget!.spentTokens - calls[i]!.outputTokens + l <= 12_000);
});

test('a summary call asks for no more output than the budget leaves', async () => {
  const summaries: (number | undefined)[] = [];
  const agent = new AgentSession({
    provider: recordingProvider([], summaries),
    // A model our tokenizer counts exactly: its unreported prompts are counted as they are, not by a prior.
    model: 'gpt-4.1',
    tools: new ToolRegistry([echoTool]),
    tokenizer,
    strategy: 'summary',
    strategyOptions: { contextWindow: 6000, summaryTokens: 2000, window: 2 },
    // The first summary comes after a dozen calls, near 36,000 tokens: this limit leaves it less than 4,000.
    budget: { session: { limit: 39_000, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
  await agent.send('Go');
  assert.ok(summaries.length > 0, 'a summary was made');
  const spent = agent.state().summaryCalls[0]!.budget!.spentTokens;
  assert.ok(summaries[0]! < 4000 && spent <= 39_000, `limit ${summaries[0]}, spent ${spent}`);
});

/** Model calls write `answer` output tokens (or what the cap allows), summaries 300 (same). */
function answeringProvider(answer: number): ChatProvider {
  let n = 0;
  return {
    id: 'anthropic',
    defaultMaxOutputTokens: 8192,
    async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      const summary = r.tools.length === 0;
      const want = summary ? 300 : answer;
      const output = Math.min(want, r.maxOutputTokens ?? want);
      yield { type: 'usage', usage: { outputTokens: output } };
      if (summary) {
        yield { type: 'text-delta', text: 'USER_CONTEXT: fix\nCOMPLETED: read files' };
      } else {
        n++;
        yield { type: 'text-delta', text: 'Reading.' };
        yield {
          type: 'tool-call',
          call: { id: `t${n}`, name: 'read_file', arguments: JSON.stringify({ path: `f${n}` }) },
        };
      }
      yield { type: 'finish', reason: output < want ? 'max_tokens' : 'end_turn' };
    },
  };
}

test("property: a summary call counts the last answer's output before the budget lets it through", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 6_000, max: 40_000 }),
      fc.integer({ min: 500, max: 4_000 }),
      async (limit, answer) => {
        const agent = new AgentSession({
          provider: answeringProvider(answer),
          // Counted exactly: the budget holds our counts of prompts the provider did not report.
          model: 'gpt-4.1',
          tools: new ToolRegistry([echoTool]),
          tokenizer,
          strategy: 'summary',
          strategyOptions: { contextWindow: 3000, summaryTokens: 200, window: 1 },
          budget: { session: { limit, mode: 'hard' } },
          maxTurns: 40,
          sleep: () => Promise.resolve(),
        });
        await agent.send('Go');
        const s = agent.state();
        const spent =
          s.calls.reduce((n, c) => n + c.tokensSent + c.outputTokens, 0) +
          s.summaryCalls.reduce((n, c) => n + c.inputTokens + c.outputTokens, 0);
        assert.ok(spent <= limit, `spent ${spent} of ${limit} (${s.summaryCalls.length} summaries)`);
        assert.equal(s.spentTokens, spent);
      },
    ),
    { numRuns: 30 },
  );
});
