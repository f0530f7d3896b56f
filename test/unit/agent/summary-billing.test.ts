// Summary calls are billed by the rule of a model call: the cache reads and writes the provider reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentSession, type AgentOptions } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatRequest, ChatStreamEvent, ProviderUsage } from '../../../src/core/agent/provider';
import { CallAccountant } from '../../../src/core/agent/accounting';
import { callTotals } from '../../../src/core/agent/call-log';
import { summaryCallCost } from '../../../src/core/agent/summary-cost';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

/** Reports usage the way the Anthropic provider does; the summarizer's call is the one without tools. */
function anthropicLike(summaryUsage: ProviderUsage): ChatProvider {
  let calls = 0;
  return {
    id: 'anthropic',
    async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      if (r.tools.length === 0) {
        yield { type: 'usage', usage: { ...summaryUsage } };
        yield { type: 'text-delta', text: 'USER_CONTEXT: fix\nCOMPLETED: read files' };
        return;
      }
      calls++;
      yield {
        type: 'usage',
        usage: { inputTokens: 5000, cachedTokens: 4000, cacheWriteTokens: 1000, outputTokens: 20 },
      };
      if (calls < 40)
        yield {
          type: 'tool-call',
          call: { id: `t${calls}`, name: 'read_file', arguments: JSON.stringify({ path: `f${calls}.py` }) },
        };
      else yield { type: 'text-delta', text: 'done' };
    },
  };
}

/** A Sonnet 4.5 session (Anthropic's prices) using the summary strategy. */
function sonnetSession(o: Pick<AgentOptions, 'provider' | 'summaryModel'>): AgentSession {
  const { money, ...prices } = resolvePricing({
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  return new AgentSession({
    ...o,
    model: 'claude-sonnet-4-5',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'sys',
    strategy: 'summary',
    prices,
    money: money!,
    maxTurns: 100,
    strategyOptions: { cachedPrice: prices.cachedPrice, cacheWritePrice: prices.cacheWritePrice },
    sleep: () => Promise.resolve(),
  });
}

test('a summary call is billed by the cache writes the provider reported (Sonnet 4.5, US$)', async () => {
  const agent = sonnetSession({
    provider: anthropicLike({ inputTokens: 20000, cachedTokens: 0, cacheWriteTokens: 19990, outputTokens: 300 }),
  });
  assert.equal(await agent.send('fix the bug'), 'completed');
  const s = agent.state();
  const summary = s.summaryCalls[0];
  assert.ok(summary, 'a summary call happened');
  // Anthropic: 10 uncached at $3, 19,990 written at $3.75, 300 output at $15 per million.
  const usd = (10 * 3 + 19990 * 3.75 + 300 * 15) / 1e6;
  assert.ok(Math.abs(summary.costUsd! - usd) < 1e-12, `${summary.costUsd} vs ${usd}`);
  assert.equal(summary.cacheWriteTokens, 19990);
  assert.equal(summary.cachedTokens, 0);
  const total = s.calls.reduce((n, c) => n + c.cost, 0) + s.summaryCalls.reduce((n, c) => n + c.cost, 0);
  assert.ok(Math.abs(total - s.cost) < 1e-6, 'the session total includes it');
});

test('a separate summary model: its reported cache reads at its own cached price', async () => {
  const pricing = resolvePricing({
    model: 'claude-haiku-4-5',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const provider = anthropicLike({
    inputTokens: 20000,
    cachedTokens: 15000,
    cacheWriteTokens: 4990,
    outputTokens: 300,
  });
  const agent = sonnetSession({ provider, summaryModel: { provider, model: 'claude-haiku-4-5', pricing } });
  assert.equal(await agent.send('fix the bug'), 'completed');
  const summary = agent.state().summaryCalls[0]!;
  // Haiku 4.5: $1 input, $0.10 cached, $1.25 written, $5 output per million.
  const usd = (10 * 1 + 15000 * 0.1 + 4990 * 1.25 + 300 * 5) / 1e6;
  assert.ok(Math.abs(summary.costUsd! - usd) < 1e-12, `${summary.costUsd} vs ${usd}`);
});

test('a summary prompt over 200k tokens is billed at the long-context tier (Sonnet 4.5, US$)', async () => {
  const usage = { inputTokens: 300_000, cachedTokens: 0, cacheWriteTokens: 299_000, outputTokens: 1000 };
  // The whole call at the tier: $6 input, $7.50 written, $22.50 output per million.
  const usd = (1000 * 6 + 299_000 * 7.5 + 1000 * 22.5) / 1e6;
  const sonnet = resolvePricing({
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  for (const summaryModel of [undefined, 'claude-sonnet-4-5-20250929']) {
    const provider = anthropicLike(usage);
    const agent = sonnetSession({
      provider,
      ...(summaryModel ? { summaryModel: { provider, model: summaryModel, pricing: sonnet } } : {}),
    });
    assert.equal(await agent.send('fix the bug'), 'completed');
    const summary = agent.state().summaryCalls[0]!;
    assert.ok(Math.abs(summary.costUsd! - usd) < 1e-9, `${summaryModel ?? 'same model'}: ${summary.costUsd} vs ${usd}`);
  }
});

test('a summary model without a price: its units are kept apart from the agent model’s, never added', async () => {
  const usage = { inputTokens: 20000, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 300 };
  const unpriced = resolvePricing({
    model: 'my-local-llm',
    provider: 'openai',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const provider = anthropicLike(usage);
  const agent = sonnetSession({ provider, summaryModel: { provider, model: 'my-local-llm', pricing: unpriced } });
  assert.equal(await agent.send('fix the bug'), 'completed');
  const s = agent.state();
  const summary = s.summaryCalls[0]!;
  assert.equal(summary.unitsOf, 'my-local-llm');
  assert.equal(summary.costUsd, undefined, 'no price, no money');
  // 20,000 input at 1 and 300 output at the default 4, in the local model's own units.
  assert.equal(summary.cost, 20000 + 300 * 4);
  const agentUnits = s.calls.reduce((n, c) => n + c.cost, 0);
  assert.ok(Math.abs(s.cost - agentUnits) < 1e-6, `session units ${s.cost} are the agent model's ${agentUnits}`);
  const t = callTotals(s);
  assert.ok(Math.abs(t.costUnits - agentUnits) < 1e-6);
  assert.deepEqual(t.summaryUnits, [{ model: 'my-local-llm', units: summary.cost * s.summaryCalls.length }]);
  assert.equal(t.costUsd, undefined, 'the total in US$ is refused');
});

test('an agent model without a price: a priced summary model’s units are kept apart too', () => {
  const haiku = resolvePricing({
    model: 'claude-haiku-4-5',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const own = resolvePricing({ model: 'my-agent', provider: 'openai', cachedPrice: 0.1, cacheWritePrice: null });
  const accountant = new CallAccountant(createTokenizer('o200k'), own);
  const bill = summaryCallCost(
    { inputTokens: 20000, cachedTokens: 0, outputTokens: 300 },
    { model: 'my-agent', accountant, money: undefined, summaryModel: { model: 'claude-haiku-4-5', pricing: haiku } },
  );
  assert.equal(bill.unitsOf, 'claude-haiku-4-5');
  // Anthropic marks the prompt for caching: the unreported uncached input is billed as written ($1.25).
  assert.ok(Math.abs(bill.costUsd! - (20000 * 1.25 + 300 * 5) / 1e6) < 1e-12, `${bill.costUsd}`);
});
