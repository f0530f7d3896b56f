// The summarizer production uses: a real model call (here the real OpenAI provider against the scripted
// server) with the checkpoint prompt; an empty answer is refused and the strategy keeps its turns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createModelSummarizer, type SummaryUsage } from '../../../src/core/agent/model-summarizer';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { SUMMARIZER_SYSTEM_PROMPT } from '../../../src/core/strategies/checkpoint';
import { createSummaryStrategy } from '../../../src/core/strategies/summary';
import { startScriptedModelServer, type ScriptStep } from '../../support/scripted-model-server';
import { conversation, wordTokenizer } from '../strategies/helpers';

async function withSummarizer(
  steps: ScriptStep[],
  use: (
    s: ReturnType<typeof createModelSummarizer>,
    calls: { before: number[]; after: [number, number][]; usage: SummaryUsage[] },
  ) => Promise<void>,
) {
  const server = await startScriptedModelServer(steps);
  const calls = { before: [] as number[], after: [] as [number, number][], usage: [] as SummaryUsage[] };
  const summarizer = createModelSummarizer({
    provider: new OpenAICompatibleProvider({ baseURL: server.baseURL }),
    model: 'small',
    tokenizer: wordTokenizer(),
    summaryTokens: 300,
    signal: () => new AbortController().signal,
    beforeCall: (tokens) => {
      calls.before.push(tokens);
      return Promise.resolve();
    },
    afterCall: (usage) => {
      calls.after.push([usage.inputTokens, usage.outputTokens]);
      calls.usage.push(usage);
    },
  });
  try {
    await use(summarizer, calls);
    return server.chatRequests();
  } finally {
    await server.close();
  }
}

test('the model gets the checkpoint prompt and the previous checkpoint; its trimmed answer is the checkpoint', async () => {
  const answer = (n: number): ScriptStep => ({
    reply: { text: `  USER_CONTEXT: fix bug ${n}\nCOMPLETED: -\nPENDING: -\nCODE_STATE: -  ` },
    usage: { promptTokens: 111, completionTokens: 22 },
  });
  const requests = await withSummarizer([answer(1), answer(2), answer(3)], async (summarizer, calls) => {
    assert.equal(summarizer.estimated, false);
    const first = await summarizer.summarize([{ role: 'user', content: 'ran pytest' }], undefined);
    assert.equal(first, 'USER_CONTEXT: fix bug 1\nCOMPLETED: -\nPENDING: -\nCODE_STATE: -');
    await summarizer.summarize([{ role: 'user', content: 'edited a.py' }], first);
    const s = createSummaryStrategy({ tokenizer: wordTokenizer(), summarizer }, { summaryTokens: 300 });
    const r = await s.build(conversation(Array.from({ length: 31 }, () => ({ action: 2, observations: [5] }))));
    assert.match(r.messages[2]!.content, /^Checkpoint for the last 21 turns:\nUSER_CONTEXT: fix bug 3/);
    assert.equal(r.summaries[0]!.estimated, false);
    assert.ok(
      calls.before.every((t) => t > 0),
      'the budget is asked with the prompt size first',
    );
    assert.deepEqual(calls.after[0], [111, 22], 'billed by the usage the provider reported');
  });
  assert.equal(requests.length, 3);
  const [one, two] = requests;
  assert.ok(one!.messages[0]!.content!.startsWith(SUMMARIZER_SYSTEM_PROMPT));
  assert.match(one!.messages[0]!.content!, /Token budget: 300/);
  assert.match(one!.messages[1]!.content!, /ran pytest/);
  assert.match(two!.messages[1]!.content!, /PREVIOUS CHECKPOINT:\nUSER_CONTEXT: fix bug 1/);
  assert.deepEqual([one!.temperature, one!.max_tokens, one!.tools], [0.2, 600, undefined]);
});

test('an empty answer is refused and the strategy keeps its state', async () => {
  await withSummarizer([{ reply: { text: '   ' } }, { reply: { text: 'fine' } }], async (summarizer) => {
    const s = createSummaryStrategy({ tokenizer: wordTokenizer(), summarizer }, { summaryTokens: 300 });
    const history = conversation(Array.from({ length: 31 }, () => ({ action: 2, observations: [5] })));
    await assert.rejects(s.build(history), /empty summary/);
    // Nothing was folded: the next call summarizes the same turns.
    const r = await s.build(history);
    assert.deepEqual([r.summaries[0]!.fromTurn, r.summaries[0]!.toTurn], [0, 21]);
    assert.equal(r.messages[2]!.content, 'Checkpoint for the last 21 turns:\nfine');
  });
});

test('the cache reads and writes the provider reported reach afterCall with the call', async () => {
  const step: ScriptStep = {
    reply: { text: 'USER_CONTEXT: fix\nCOMPLETED: -' },
    rawUsage: {
      prompt_tokens: 20000,
      completion_tokens: 300,
      total_tokens: 20300,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 19990,
    },
  };
  await withSummarizer([step], async (summarizer, calls) => {
    await summarizer.summarize([{ role: 'user', content: 'ran pytest' }], undefined);
    assert.deepEqual(calls.usage, [
      { inputTokens: 20000, outputTokens: 300, cachedTokens: 0, cacheWriteTokens: 19990 },
    ]);
  });
});
