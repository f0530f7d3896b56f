// A call that reported its input and then failed or was stopped mid-answer (Anthropic reports output only
// at the end) is billed for the output it streamed, counted by us, not for none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import { createTokenizer } from '../../../src/core/tokens';

type ChatRequestMessages = { role: string; content: string }[];

const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');

/** Reports its input, streams `words`, then fails (or waits for Stop). */
function cutProvider(mode: 'error' | 'stop', streamed: () => void): ChatProvider {
  return {
    id: 'cut',
    async *chat(request): AsyncIterable<ChatStreamEvent> {
      yield { type: 'usage', usage: { inputTokens: 5000, cachedTokens: 0, cacheWriteTokens: 0 } };
      yield { type: 'text-delta', text: words };
      streamed();
      if (mode === 'error') throw new ProviderError({ kind: 'server', message: 'Overloaded mid-stream' });
      if (!request.signal.aborted)
        await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
      throw new ProviderError({ kind: 'aborted', message: 'Stopped' });
    },
  };
}

for (const mode of ['error', 'stop'] as const)
  test(`a call ${mode === 'error' ? 'failing' : 'stopped'} after its input was reported bills the output it streamed`, async () => {
    const ac = new AbortController();
    const tokenizer = createTokenizer('o200k');
    const agent = new AgentSession({
      provider: cutProvider(mode, () => ac.abort()),
      model: 'm',
      tools: new ToolRegistry([]),
      tokenizer,
      systemPrompt: 'You are a coding agent.',
      sleep: () => Promise.resolve(),
      retry: { maxRetries: 0 },
    });
    const status = await agent.send('Write an essay', mode === 'stop' ? ac.signal : undefined);
    assert.equal(status, mode === 'error' ? 'error' : 'aborted');
    const record = agent.state().calls.at(-1)!;
    assert.equal(record.billedBy, 'provider');
    assert.ok(record.outputTokens >= tokenizer.count(words), `output ${record.outputTokens}`);
    assert.ok(record.outputTokens < tokenizer.count(words) + 20, `output ${record.outputTokens}`);
  });

test('a stopped answer stays in the conversation as far as it streamed, so the next call and a resume see it', async () => {
  const ac = new AbortController();
  let requests: ChatRequestMessages = [];
  let calls = 0;
  const provider: ChatProvider = {
    id: 'stoppable',
    async *chat(request): AsyncIterable<ChatStreamEvent> {
      requests = request.messages.map((m) => ({ role: m.role, content: m.content }));
      if (calls++ > 0) {
        yield { type: 'text-delta', text: 'Going on.' };
        yield { type: 'finish', reason: 'stop' };
        return;
      }
      yield { type: 'text-delta', text: 'Step one: open the ' };
      ac.abort();
      await new Promise((resolve) => setTimeout(resolve, 0));
      throw new ProviderError({ kind: 'aborted', message: 'Stopped' });
    },
  };
  const written: string[] = [];
  const agent = new AgentSession({
    provider,
    model: 'm',
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    sleep: () => Promise.resolve(),
    onMessage: (m) => written.push(`${m.role}: ${m.content}`),
  });
  assert.equal(await agent.send('Explain the build', ac.signal), 'aborted');
  assert.deepEqual(written, ['user: Explain the build', 'assistant: Step one: open the ']);
  assert.equal(agent.state().turns, 1);
  assert.equal(await agent.send('Go on'), 'completed');
  assert.deepEqual(requests.slice(1), [
    { role: 'user', content: 'Explain the build' },
    { role: 'assistant', content: 'Step one: open the ' },
    { role: 'user', content: 'Go on' },
  ]);
});
