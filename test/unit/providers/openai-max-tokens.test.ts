// The output limit goes in the field the server reads: OpenAI's reasoning models refuse `max_tokens`,
// Ollama and llama-cpp-python ignore `max_completion_tokens`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectChat } from '../../../src/core/agent/provider';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { maxTokensField } from '../../../src/core/providers/openai-max-tokens';
import { startScriptedModelServer } from '../../support/scripted-model-server';

test('max_completion_tokens for api.openai.com and OpenAI reasoning models, max_tokens elsewhere', () => {
  assert.equal(maxTokensField('https://api.openai.com/v1', 'gpt-4o'), 'max_completion_tokens');
  for (const model of ['o1', 'o1-mini', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1'])
    assert.equal(maxTokensField('https://me.openai.azure.com/openai/v1', model), 'max_completion_tokens', model);
  for (const [url, model] of [
    ['http://127.0.0.1:11434/v1', 'llama3.1'],
    ['http://localhost:8000/v1', 'Qwen/Qwen2.5-Coder-32B-Instruct'],
    ['https://openrouter.ai/api/v1', 'openai/o3'],
    ['https://api.deepseek.com/v1', 'deepseek-chat'],
    ['https://api.groq.com/openai/v1', 'openai/gpt-oss-120b'],
    ['https://me.openai.azure.com/openai/v1', 'gpt-4o'],
    ['http://127.0.0.1:1234/v1', 'olmo-2'],
  ])
    assert.equal(maxTokensField(url!, model!), 'max_tokens', `${url} ${model}`);
});

test('the request carries the limit in the field its server reads', async () => {
  const server = await startScriptedModelServer([{ reply: { text: 'a' } }, { reply: { text: 'b' } }]);
  try {
    const provider = new OpenAICompatibleProvider({ baseURL: server.baseURL });
    for (const model of ['o3-mini', 'llama3.1'])
      await collectChat(
        provider.chat({ model, messages: [], tools: [], signal: new AbortController().signal, maxOutputTokens: 300 }),
      );
    const [reasoning, local] = server.chatRequests();
    assert.equal(reasoning!.max_completion_tokens, 300);
    assert.equal(reasoning!.max_tokens, undefined);
    assert.equal(local!.max_tokens, 300);
    assert.equal(local!.max_completion_tokens, undefined);
  } finally {
    await server.close();
  }
});
