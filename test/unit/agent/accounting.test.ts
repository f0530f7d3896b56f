import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallAccountant, REPLY_PRIMING_TOKENS } from '../../../src/core/agent/accounting';
import type { ToolSpec } from '../../../src/core/agent/provider';
import type { Message } from '../../../src/core/messages';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import { createTokenizer } from '../../../src/core/tokens';
import type { Trajectory } from '../../../src/core/trajectories';
import { conversation, trajectoryOf, wordTokenizer } from '../strategies/helpers';

const prices = { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 5 };
const tool = (name: string): ToolSpec => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});

test('the shared prefix is cached while the tool definitions stay the same, and nothing is once they change', () => {
  const a = new CallAccountant(createTokenizer('o200k'), prices);
  const first: Message[] = [
    { role: 'system', content: 'You are a coding agent. '.repeat(200) },
    { role: 'user', content: 'Fix the build.' },
  ];
  const second: Message[] = [...first, { role: 'assistant', content: 'Looking.' }, { role: 'user', content: 'Go on.' }];
  a.bill(first, first, [tool('read_file')]);
  a.commit(first);
  const same = a.bill(second, second, [tool('read_file')]);
  assert.ok(same.cachedTokens > 1000, String(same.cachedTokens));
  // A server's tools arrive: they come before every message, so the provider has nothing cached.
  const changed = a.bill(second, second, [tool('read_file'), tool('mcp_call')]);
  assert.equal(changed.cachedTokens, 0);
  assert.equal(changed.inputCost, changed.tokensSent * prices.cacheWritePrice);
});

test('a shared prefix under the minimum providers cache (1,024 tokens, as replay) is billed whole; tool definitions count toward it', () => {
  const a = new CallAccountant(createTokenizer('o200k'), prices);
  const chat: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the build.' },
  ];
  a.bill(chat, chat, [tool('read_file')]);
  a.commit(chat);
  const next: Message[] = [...chat, { role: 'assistant', content: 'Looking.' }, { role: 'user', content: 'Go on.' }];
  const short = a.bill(next, next, [tool('read_file')]);
  // Tools and two short messages are shared, far under 1,024 tokens: the provider caches none of it.
  assert.equal(short.cachedTokens, 0);
  assert.equal(short.inputCost, short.tokensSent * prices.cacheWritePrice);
  // The same messages behind tool definitions that bring the shared prefix over the minimum are cached.
  const many = Array.from({ length: 40 }, (_, i) => tool(`tool_${i}`));
  const b = new CallAccountant(createTokenizer('o200k'), prices);
  b.bill(chat, chat, many);
  b.commit(chat);
  const long = b.bill(next, next, many);
  const shared = long.parts.tools + b.count(chat[0]!) + b.count(chat[1]!);
  assert.ok(shared >= 1024, String(shared));
  assert.equal(long.cachedTokens, shared);
  // The minimum can be set (0: any shared prefix is cached) and must be a count.
  const any = new CallAccountant(createTokenizer('o200k'), prices, 0);
  any.bill(chat, chat, [tool('read_file')]);
  any.commit(chat);
  assert.equal(
    any.bill(next, next, [tool('read_file')]).cachedTokens,
    short.parts.tools + any.count(chat[0]!) + any.count(chat[1]!),
  );
  assert.throws(
    () => new CallAccountant(createTokenizer('o200k'), prices, -1),
    /minCachedTokens must be an integer >= 0/,
  );
});

test('the live estimate and replay bill the same contexts alike, the minimum cached prefix included', async () => {
  const tokenizer = wordTokenizer();
  const t = trajectoryOf(conversation(Array.from({ length: 12 }, () => ({ action: 20, observations: [150] }))));
  const contexts: (readonly Message[])[] = [];
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer, {
    onContext: (_, messages) => void contexts.push(messages),
  });
  const { cachedPrice, cacheWritePrice } = DEFAULT_REPLAY_OPTIONS;
  const live = new CallAccountant(tokenizer, { cachedPrice, cacheWritePrice, outputPrice: 1 });
  let short = 0;
  r.calls.forEach((c, k) => {
    const bill = live.bill(contexts[k]!, contexts[k]!, []);
    live.commit(contexts[k]!);
    if (k > 0 && c.cachedTokens === 0) short++;
    assert.equal(bill.cachedTokens, c.cachedTokens, `call ${k}`);
    assert.equal(bill.tokensSent, c.contextTokens + REPLY_PRIMING_TOKENS, `call ${k}`);
    assert.ok(Math.abs(bill.inputCost - (c.cost + REPLY_PRIMING_TOKENS * cacheWritePrice)) < 1e-9, `call ${k}`);
  });
  assert.ok(short >= 2 && short < r.calls.length - 1, `${short} calls with a shared prefix under the minimum`);
});

test('an answer the provider did not size counts as replay counts it: its text and tool calls, not the message framing', async () => {
  const tokenizer = createTokenizer('o200k');
  const answer: Message = {
    role: 'assistant',
    content: 'Reading the build script.',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"build.ts"}' }],
  };
  const t: Trajectory = {
    id: 'one',
    source: 'one.json',
    format: 'openai-chat',
    messages: [{ role: 'user', content: 'Fix the build.' }, answer],
  };
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
  const live = new CallAccountant(tokenizer, prices);
  assert.equal(r.calls[0]!.outputRecorded, false);
  assert.equal(live.countOutput(answer), r.calls[0]!.outputTokens);
  assert.equal(
    live.countOutput(answer),
    tokenizer.countMessage(answer) - tokenizer.countMessage({ role: 'assistant', content: '' }),
  );
});
