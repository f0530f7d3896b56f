// Reasoning tokens: OpenAI counts them in its output (billed at the output price) and never sends them
// back, so they take no room in the context. The provider's figure is kept apart in the call record,
// survives a resume, and the status bar says how much of the last answer was reasoning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { parseCallRecord } from '../../../src/core/agent/call-log';
import { usageFromOpenAI } from '../../../src/core/providers/openai-usage';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { createTokenizer } from '../../../src/core/tokens';
import { meterFromLog } from '../../../src/extension/agent/meter';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { statusBarTooltip } from '../../../src/extension/statusBarText';

test('OpenAI usage: reasoning tokens are read apart, as a part of the output', () => {
  const u = usageFromOpenAI({
    prompt_tokens: 2000,
    completion_tokens: 900,
    total_tokens: 2900,
    completion_tokens_details: { reasoning_tokens: 700 },
  });
  assert.equal(u.outputTokens, 900);
  assert.equal(u.reasoningTokens, 700);
  // No reasoning figure: none is made up.
  assert.equal(usageFromOpenAI({ prompt_tokens: 10, completion_tokens: 5 }).reasoningTokens, undefined);
  // A figure over the output it is part of is not a count of it.
  const odd = usageFromOpenAI({
    prompt_tokens: 10,
    completion_tokens: 5,
    completion_tokens_details: { reasoning_tokens: 9 },
  });
  assert.equal(odd.reasoningTokens, 5);
});

test('a call’s reasoning tokens are billed as output, kept in its record and shown by the status bar', async () => {
  const model = 'o4-mini';
  const { money, ...prices } = resolvePricing({ model, provider: 'openai', cachedPrice: 0.1, cacheWritePrice: null });
  const provider = {
    id: 'openai',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      yield { type: 'text-delta', text: 'done' };
      yield { type: 'usage', usage: { inputTokens: 3000, cachedTokens: 0, outputTokens: 900, reasoningTokens: 700 } };
    },
  } as ChatProvider;
  const agent = new AgentSession({
    provider,
    model,
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'raw',
    prices,
    ...(money ? { money } : {}),
    sleep: () => Promise.resolve(),
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  await agent.send('Think hard.');
  const record = events.flatMap((e) => (e.type === 'call-finished' ? [e.record] : []))[0]!;
  assert.equal(record.outputTokens, 900);
  assert.equal(record.usage?.reasoningTokens, 700);
  // Output at the output price, reasoning included: 900 output tokens, not 200.
  assert.ok(Math.abs(record.cost - (3000 + 900 * prices.outputPrice)) < 1e-6, `cost ${record.cost}`);
  // Written and read back (a resume).
  const back = parseCallRecord(JSON.parse(JSON.stringify(record)))!;
  assert.equal(back.usage?.reasoningTokens, 700);
  const chat = new ChatModel(emptyChat('s', 'raw', 200_000, false));
  for (const e of events) chat.event(e);
  assert.equal(chat.snapshot.meter.reported?.reasoningTokens, 700);
  assert.equal(chat.snapshot.meter.reported?.outputTokens, 900);
  const resumed = meterFromLog(chat.snapshot.meter, { calls: [back], summaryCalls: [] });
  assert.deepEqual(resumed.reported, chat.snapshot.meter.reported);
  const tip = statusBarTooltip({ strategy: 'raw', meter: chat.snapshot.meter });
  assert.match(tip, /900 output tokens, 700 of them reasoning \(billed as output, not sent back\)/);
  // Nothing said where the provider reported no reasoning.
  const { reasoningTokens: _r, ...plain } = chat.snapshot.meter.reported!;
  assert.doesNotMatch(
    statusBarTooltip({ strategy: 'raw', meter: { ...chat.snapshot.meter, reported: plain } }),
    /reasoning/,
  );
});
