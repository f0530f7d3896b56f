// A provider that reports no usage (vscode.lm) leaves the budget with its scaled estimate of each prompt and
// answer for a model our tokenizer does not count exactly (Claude via Copilot). The cost used to be billed
// by our own count all the same, so the two disagreed: a 4-call session cost 3,090 units for the 7,875
// tokens its budget had counted. Now the cost is billed by the budget's figures, which the record keeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import { callLogFrom, recomputedCost } from '../../../src/core/agent/call-log';
import type { CallRecord, SessionState } from '../../../src/core/agent/session-state';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

/** Answers with a text and a tool call `calls` times, then a text; reports nothing about usage. */
function silentProvider(calls: number): ChatProvider {
  let n = 0;
  return {
    id: 'vscode-lm',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      n++;
      yield { type: 'text-delta', text: 'Reading the next file, then I will say what I found in it.' };
      if (n <= calls)
        yield {
          type: 'tool-call',
          call: { id: `t${n}`, name: 'read_file', arguments: JSON.stringify({ path: `f${n}.py` }) },
        };
      yield { type: 'finish', reason: n <= calls ? 'tool_calls' : 'stop' };
    },
  };
}

// Prices with no cache discount: a call's cost in units is then its billed input plus its output at 4.
const FLAT = { cachedPrice: 1, cacheWritePrice: 1, outputPrice: 4 };

function session(model: string, calls: number): AgentSession {
  return new AgentSession({
    provider: silentProvider(calls),
    model,
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'raw',
    prices: FLAT,
    budget: { session: { limit: 10_000_000, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
}

/** Tokens the budget counted for each call: the difference between consecutive records' budget figures. */
function budgetPerCall(s: SessionState): number[] {
  let before = 0;
  return s.calls.map((c) => {
    const d = c.budget!.spentTokens - before;
    before = c.budget!.spentTokens;
    return d;
  });
}

function inputOutput(c: CallRecord): { input: number; output: number } {
  const f = c.scaled ?? { inputTokens: c.tokensSent, outputTokens: c.outputTokens };
  return { input: f.inputTokens, output: f.outputTokens };
}

test('Claude via a provider that reports no usage: the cost is billed by the tokens the budget counted', async () => {
  const agent = session('claude-sonnet-4', 3);
  assert.equal(await agent.send('Fix the failing test.'), 'completed');
  const s = agent.state();
  assert.equal(s.calls.length, 4);
  const perCall = budgetPerCall(s);
  s.calls.forEach((c, i) => {
    assert.ok(c.scaled, `call ${c.call} records the scaled figures`);
    assert.ok(c.scaled.inputTokens > c.tokensSent, 'the prompt is asked for above our count');
    const { input, output } = inputOutput(c);
    assert.equal(input + output, perCall[i], `call ${c.call}: the budget counted what the record says`);
    assert.equal(c.cost, input + output * FLAT.outputPrice, `call ${c.call}: billed by the budget's figures`);
  });
  const counted = s.calls.reduce((n, c) => n + inputOutput(c).input + inputOutput(c).output * 4, 0);
  assert.equal(s.cost, counted, 'the session cost is what its calls were billed');
});

test('a call record with scaled figures is billed again to the same cost (replay, resume, History)', async () => {
  const agent = session('claude-opus-4.5', 2);
  await agent.send('Fix the failing test.');
  const lines = agent.state().calls.map((call) => JSON.parse(JSON.stringify({ kind: 'call', call })) as unknown);
  const log = callLogFrom(lines);
  assert.equal(log.skipped, 0);
  for (const r of log.calls) {
    assert.ok(r.scaled, 'the scaled figures survive the history file');
    assert.ok(Math.abs(recomputedCost(r) - r.cost) < 1e-9, `call ${r.call}: ${recomputedCost(r)} vs ${r.cost}`);
  }
});

test('a model counted exactly (GPT-4o via vscode.lm) keeps our count: no scaled figures', async () => {
  const agent = session('gpt-4o', 2);
  await agent.send('Fix the failing test.');
  const s = agent.state();
  const perCall = budgetPerCall(s);
  s.calls.forEach((c, i) => {
    assert.equal(c.scaled, undefined);
    assert.equal(c.tokensSent + c.outputTokens, perCall[i]);
    assert.equal(c.cost, c.tokensSent + c.outputTokens * FLAT.outputPrice);
  });
});

test('a record whose scaled figures are not counts is skipped, not billed', () => {
  const call = { turn: 1, call: 1, tokensSent: 10, rawHistoryTokens: 10, cachedTokens: 0, outputTokens: 1, cost: 14 };
  for (const scaled of [null, 'x', { inputTokens: -1, outputTokens: 1 }, { inputTokens: 1 }])
    assert.equal(callLogFrom([{ kind: 'call', call: { ...call, at: 1, scaled } }]).skipped, 1, JSON.stringify(scaled));
});

test('property: for any model we do not count exactly, unreported calls cost what the budget counted', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('claude-sonnet-4', 'claude-haiku-4.5', 'gemini-2.5-pro', 'llama-3.3-70b'),
      fc.integer({ min: 1, max: 4 }),
      async (model, calls) => {
        const agent = session(model, calls);
        await agent.send('Fix the failing test.');
        const s = agent.state();
        const perCall = budgetPerCall(s);
        s.calls.forEach((c, i) => {
          const { input, output } = inputOutput(c);
          assert.equal(input + output, perCall[i]);
          assert.equal(c.cost, input + output * FLAT.outputPrice);
        });
      },
    ),
    { numRuns: 20 },
  );
});

/** A summary model that answers with a summary and reports nothing about usage. */
function silentSummarizer(): ChatProvider {
  return {
    id: 'vscode-lm',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      yield { type: 'text-delta', text: 'USER_CONTEXT: fix the parser\nCOMPLETED: read files' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

test('a Claude summary model that reports no usage is billed by the tokens the budget counted for it', async () => {
  const agent = new AgentSession({
    provider: silentProvider(8),
    model: 'gpt-4.1',
    summaryModel: { provider: silentSummarizer(), model: 'claude-sonnet-4-5' },
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'summary',
    strategyOptions: { contextWindow: 3000, summaryTokens: 400, window: 2 },
    prices: FLAT,
    budget: { session: { limit: 10_000_000, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
  await agent.send('Fix the failing test in src/parser.ts. '.repeat(60));
  const s = agent.state();
  assert.ok(s.summaryCalls.length > 0, 'a summary was written');
  for (const c of s.summaryCalls) {
    assert.ok(c.scaled, 'the summary record keeps the scaled figures');
    assert.ok(c.scaled.inputTokens > c.tokensSent!, 'its prompt is asked for above our count');
    // No price for the summary model: its own units, input at 1 and output at 4.
    assert.equal(c.cost, c.scaled.inputTokens + c.scaled.outputTokens * 4);
  }
  const back = callLogFrom(s.summaryCalls.map((call) => ({ kind: 'summary-call', call })));
  assert.deepEqual(
    back.summaryCalls.map((c) => c.scaled),
    s.summaryCalls.map((c) => c.scaled),
  );
});
