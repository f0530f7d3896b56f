// An OpenAI-compatible server that reports an error inside its stream (vLLM, LiteLLM): a prompt over the
// model's window is a context overflow (the agent's filtered retry can help), anything else the server's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { chat, oa, serve } from './raw-sse';

async function streamedError(error: object): Promise<ProviderError> {
  const s = await serve([oa({ role: 'assistant', content: '' }) + `data: ${JSON.stringify({ error })}\n\n`]);
  try {
    const r = await chat(new OpenAICompatibleProvider({ baseURL: s.url, timeoutMs: 5000 }));
    assert.ok(r instanceof ProviderError, 'the call fails');
    return r;
  } finally {
    await s.close();
  }
}

test("an error in the stream that says the prompt is over the window is a context overflow, others the server's", async () => {
  for (const error of [
    { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens." },
    { message: 'Request too large', code: 'context_length_exceeded' },
  ]) {
    const r = await streamedError(error);
    assert.equal(r.kind, 'context-overflow', error.message);
    assert.ok(r.message.includes(error.message), r.message);
  }
  // Any other error in the stream stays the server's (retried as it is).
  const r = await streamedError({ message: 'CUDA out of memory', type: 'InternalServerError' });
  assert.equal(r.kind, 'server');
  assert.match(r.message, /CUDA out of memory/);
});
