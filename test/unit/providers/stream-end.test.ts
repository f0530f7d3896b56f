// A stream that closes before its end marker (a proxy's timeout, a dropped connection) is a cut answer:
// a transient network error, never a complete reply. OpenAI-compatible servers end with a finish_reason
// or `data: [DONE]` (either will do: some local servers send only one); Anthropic with `message_stop`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import type { ChatResult } from '../../../src/core/agent/provider';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { DONE, an, anthropic, chat, oa, oaUsage, serve } from './raw-sse';

const toolChunk = oa({
  tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
});

async function openai(body: string, pieces = 1): Promise<ChatResult | ProviderError> {
  const s = await serve([body], pieces);
  try {
    return await chat(new OpenAICompatibleProvider({ baseURL: s.url, timeoutMs: 5000 }));
  } finally {
    await s.close();
  }
}

test('OpenAI-compatible: a stream cut after text and a whole tool call is a network error, not an answer', async () => {
  const r = await openai(oa({ role: 'assistant', content: 'I will read two files.' }) + toolChunk);
  assert.ok(r instanceof ProviderError, 'the cut answer is refused');
  assert.equal(r.kind, 'network');
  assert.equal(r.unreachable, undefined, 'a server answered: retried as transient');
  assert.match(r.message, /stream ended early/);
  assert.match(r.url ?? '', /\/chat\/completions$/);
});

test('OpenAI-compatible: a finish_reason without [DONE], or [DONE] without a finish_reason, is a proper end', async () => {
  const finishOnly = await openai(oa({ content: 'Hello' }) + oa({}, 'stop') + oaUsage);
  assert.ok(!(finishOnly instanceof Error), String(finishOnly));
  assert.equal(finishOnly.text, 'Hello');
  assert.equal(finishOnly.finishReason, 'stop');
  // [DONE] split over writes, after a usage chunk: the marker is still seen.
  for (const pieces of [1, 7, 40]) {
    const doneOnly = await openai(oa({ content: 'Hello' }) + toolChunk + oaUsage + DONE, pieces);
    assert.ok(!(doneOnly instanceof Error), `${pieces} pieces: ${String(doneOnly)}`);
    assert.deepEqual(
      doneOnly.toolCalls.map((c) => c.arguments),
      ['{"path":"a"}'],
    );
  }
});

test('OpenAI-compatible: "[DONE]" inside the text is not the end marker', async () => {
  const r = await openai(oa({ content: 'data: [DONE]\n\nnot yet' }) + oa({ content: ' more' }));
  assert.ok(r instanceof ProviderError && r.kind === 'network', String(r));
});

const anStart = an('message_start', {
  message: {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  },
});
const anText =
  an('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  an('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'I will read.' } }) +
  an('content_block_stop', { index: 0 });
const anTool =
  an('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 't1', name: 'read_file', input: {} } }) +
  an('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } }) +
  an('content_block_stop', { index: 1 });
const anEnd =
  an('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } }) +
  an('message_stop', {});

test('Anthropic: a stream cut before message_stop is a network error, not an answer', async () => {
  for (const cut of [
    anStart + anText + anTool,
    anStart +
      anText +
      anTool +
      an('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } }),
  ]) {
    const r = await anthropic(cut);
    assert.ok(r instanceof ProviderError, 'the cut answer is refused');
    assert.equal(r.kind, 'network');
    assert.match(r.message, /stream ended early/);
  }
  const whole = await anthropic(anStart + anText + anTool + anEnd);
  assert.ok(!(whole instanceof Error), String(whole));
  assert.equal(whole.toolCalls.length, 1);
  assert.equal(whole.finishReason, 'tool_use');
});
