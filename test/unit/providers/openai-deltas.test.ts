// What an OpenAI-compatible stream's deltas become: a refusal is text (with a `refusal` end), arguments sent
// as an object are their JSON, and only the first choice is the answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatResult } from '../../../src/core/agent/provider';
import type { ProviderError } from '../../../src/core/agent/errors';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { DONE, chat, oa, oaUsage, serve } from './raw-sse';

async function openai(body: string): Promise<ChatResult> {
  const s = await serve([body]);
  try {
    const r: ChatResult | ProviderError = await chat(new OpenAICompatibleProvider({ baseURL: s.url, timeoutMs: 5000 }));
    if (r instanceof Error) throw r;
    return r;
  } finally {
    await s.close();
  }
}

test('a refusal is the answer text, reported as a refusal', async () => {
  const r = await openai(
    oa({ role: 'assistant', content: null, refusal: '' }) +
      oa({ refusal: "I'm sorry, I can't help " }) +
      oa({ refusal: 'with that request.' }) +
      oa({}, 'stop') +
      oaUsage +
      DONE,
  );
  assert.equal(r.text, "I'm sorry, I can't help with that request.");
  assert.equal(r.finishReason, 'refusal');
});

test('tool arguments sent as a JSON object (not its text) are kept as that JSON', async () => {
  const r = await openai(
    oa({
      role: 'assistant',
      tool_calls: [
        { index: 0, id: 'c1', type: 'function', function: { name: 'read_file', arguments: { path: 'a.ts' } } },
      ],
    }) +
      oa({}, 'tool_calls') +
      DONE,
  );
  assert.deepEqual(r.toolCalls, [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }]);
});

test('a second choice a server sends anyway is not mixed into the answer', async () => {
  const r = await openai(
    oa({ content: 'Alpha ' }) +
      oa({ content: 'Beta ' }, null, 1) +
      oa({ content: 'one.' }) +
      oa({ content: 'two.' }, null, 1) +
      oa({}, 'stop', 1) +
      oa({}, 'length') +
      DONE,
  );
  assert.equal(r.text, 'Alpha one.');
  assert.equal(r.finishReason, 'length', "the first choice's own end");
});
