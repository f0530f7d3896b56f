// o200k and cl100k are OpenAI's encodings: their counts are exact for OpenAI's models only, and shown as
// estimates (≈) for Claude, Gemini, Llama and the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import type { AgentEvent } from '../../../src/core/agent/events';
import { createTokenizer, type TokenizerName } from '../../../src/core/tokens';
import { countsExactly, openAiEncodingOf } from '../../../src/core/tokens/model-family';

test('a tokenizer counts exactly only for the models of its own encoding', () => {
  for (const m of [
    'gpt-4o',
    'gpt-4o-mini',
    'openai/gpt-4.1',
    'gpt-5-mini',
    'o3',
    'o4-mini',
    'o1-preview',
    'chatgpt-4o-latest',
  ])
    assert.equal(openAiEncodingOf(m), 'o200k', m);
  for (const m of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'text-embedding-3-small', 'text-embedding-ada-002'])
    assert.equal(openAiEncodingOf(m), 'cl100k', m);
  for (const m of [
    'claude-opus-4-5',
    'anthropic/claude-sonnet-4.5',
    'gemini-2.5-pro',
    'llama3.1:8b',
    'qwen2.5-coder',
    'deepseek-chat',
    'mistral-large',
    'gpt-oss-120b',
    'o1x',
  ])
    assert.equal(openAiEncodingOf(m), undefined, m);
  assert.equal(countsExactly('o200k', 'gpt-4o'), true);
  assert.equal(countsExactly('cl100k', 'gpt-4o'), false, "not gpt-4o's encoding");
  assert.equal(countsExactly('o200k', 'claude-opus-4-5'), false);
  assert.equal(countsExactly('chars4', 'gpt-4o'), false);
  assert.equal(countsExactly('o200k', ''), false, 'no model name (vscode.lm takes the first offered): unknown');
});

async function estimatedFlag(tokenizer: TokenizerName, model: string): Promise<boolean> {
  const provider = {
    id: 'fake',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      yield { type: 'text-delta', text: 'done' };
    },
  } as ChatProvider;
  const agent = new AgentSession({
    provider,
    model,
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer(tokenizer),
    systemPrompt: 'sys',
    strategy: 'raw',
    sleep: () => Promise.resolve(),
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  await agent.send('go');
  const p = events.find((e) => e.type === 'context-prepared');
  assert.ok(p?.type === 'context-prepared');
  return p.estimated;
}

test("a Claude session's o200k counts reach the meter as estimates; a GPT-4o session's as exact", async () => {
  assert.equal(await estimatedFlag('o200k', 'claude-opus-4-5'), true);
  assert.equal(await estimatedFlag('o200k', 'gemini-2.5-pro'), true);
  assert.equal(await estimatedFlag('o200k', 'gpt-4o'), false);
  assert.equal(await estimatedFlag('chars4', 'gpt-4o'), true);
});
