import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectChat, type ProviderUsage } from '../../../src/core/agent/provider';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { startScriptedModelServer } from '../../support/scripted-model-server';

/** The usage the provider reads from a server that answers with `raw` as its usage object. */
async function usageOf(raw: Record<string, unknown>): Promise<ProviderUsage> {
  const server = await startScriptedModelServer([{ reply: { text: 'Done.' }, rawUsage: raw }]);
  try {
    const provider = new OpenAICompatibleProvider({ baseURL: server.baseURL, timeoutMs: 5000 });
    const r = await collectChat(
      provider.chat({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: AbortSignal.timeout(5000),
      }),
    );
    return r.usage;
  } finally {
    await server.close();
  }
}

test('OpenRouter: cache writes from prompt_tokens_details.cache_write_tokens', async () => {
  const u = await usageOf({
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
  });
  assert.deepEqual(u, { inputTokens: 20000, outputTokens: 100, cachedTokens: 0, cacheWriteTokens: 0 });
  // OpenAI reports nothing about writes: the figure stays unknown.
  const openai = await usageOf({
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    prompt_tokens_details: { cached_tokens: 18048 },
    completion_tokens_details: { reasoning_tokens: 60 },
  });
  // Its reasoning is read apart, as a part of the output.
  assert.deepEqual(openai, { inputTokens: 20000, outputTokens: 100, cachedTokens: 18048, reasoningTokens: 60 });
});

test('DeepSeek: cache hits from prompt_cache_hit_tokens; no cache figure at all stays unknown', async () => {
  const u = await usageOf({
    prompt_tokens: 20000,
    completion_tokens: 100,
    total_tokens: 20100,
    prompt_cache_hit_tokens: 18000,
    prompt_cache_miss_tokens: 2000,
  });
  assert.deepEqual(u, { inputTokens: 20000, outputTokens: 100, cachedTokens: 18000 });
  // A server that reports no cache figure at all leaves it unknown, not 0.
  const none = await usageOf({ prompt_tokens: 2000, completion_tokens: 10, total_tokens: 2010 });
  assert.deepEqual(none, { inputTokens: 2000, outputTokens: 10 });
});

test("LiteLLM in front of Claude: Anthropic's read and write figures passed through", async () => {
  const u = await usageOf({
    prompt_tokens: 98805,
    completion_tokens: 5120,
    total_tokens: 103925,
    prompt_tokens_details: { cached_tokens: 66360, cache_creation_tokens: 32435 },
    cache_read_input_tokens: 66360,
    cache_creation_input_tokens: 32435,
  });
  assert.deepEqual(u, { inputTokens: 98805, outputTokens: 5120, cachedTokens: 66360, cacheWriteTokens: 32435 });
  const top = await usageOf({
    prompt_tokens: 5000,
    completion_tokens: 10,
    total_tokens: 5010,
    cache_read_input_tokens: 4000,
    cache_creation_input_tokens: 900,
  });
  assert.deepEqual(top, { inputTokens: 5000, outputTokens: 10, cachedTokens: 4000, cacheWriteTokens: 900 });
});

test('LiteLLM versions whose prompt_tokens left cache figures out: rebuilt where certain, else unknown', async () => {
  // Older versions left reads and writes out: the prompt is below its reads, so both are added.
  const older = await usageOf({
    prompt_tokens: 88,
    completion_tokens: 10,
    total_tokens: 98,
    cache_read_input_tokens: 120269,
    cache_creation_input_tokens: 21002,
  });
  assert.equal(older.inputTokens, 88 + 120269 + 21002);
  // 1.74 left only the writes out (BerriAI/litellm#13207): between reads and reads + writes, which ones it
  // left out is not known, so the prompt size is not taken (the agent bills by its own count instead).
  const v174 = await usageOf({
    prompt_tokens: 120357,
    completion_tokens: 10,
    total_tokens: 120367,
    cache_read_input_tokens: 120269,
    cache_creation_input_tokens: 21002,
  });
  assert.deepEqual(v174, { outputTokens: 10, cachedTokens: 120269, cacheWriteTokens: 21002 });
  // No reads: leaving them out or not is the same, so the writes are added.
  const writesOnly = await usageOf({
    prompt_tokens: 50,
    completion_tokens: 10,
    total_tokens: 60,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 9000,
  });
  assert.equal(writesOnly.inputTokens, 9050);
});

test('reasoning left out of completion_tokens (but in the total) is output all the same', async () => {
  const u = await usageOf({
    prompt_tokens: 2100,
    completion_tokens: 0,
    total_tokens: 2160,
    completion_tokens_details: { reasoning_tokens: 60 },
  });
  assert.equal(u.outputTokens, 60);
  // OpenAI's convention (reasoning inside completion_tokens) is not counted twice.
  const openai = await usageOf({
    prompt_tokens: 2100,
    completion_tokens: 100,
    total_tokens: 2200,
    completion_tokens_details: { reasoning_tokens: 60 },
  });
  assert.equal(openai.outputTokens, 100);
  // An excess without a reasoning figure is not guessed to be output.
  const unexplained = await usageOf({ prompt_tokens: 2100, completion_tokens: 5, total_tokens: 4000 });
  assert.equal(unexplained.outputTokens, 5);
});
