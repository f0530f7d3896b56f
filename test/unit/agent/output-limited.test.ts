// VS Code's language models take no output limit: the agent cuts their stream at the limit itself, so
// one long answer under a hard budget does not pass it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

/** Streams a long answer (and a tool call after it) whatever limit it is given, reporting no usage. */
function unlimitedProvider(stats: { deltas: number; closed: boolean }): ChatProvider {
  return {
    id: 'vscode-lm',
    ignoresOutputLimit: true,
    async *chat(): AsyncIterable<ChatStreamEvent> {
      try {
        for (let i = 0; i < 5_000; i++) {
          await Promise.resolve();
          stats.deltas++;
          yield { type: 'text-delta', text: 'The answer goes on and on. ' };
        }
        yield { type: 'tool-call', call: { id: 't1', name: 'echo', arguments: '{"text":"x"}' } };
        yield { type: 'finish', reason: 'tool_calls' };
      } finally {
        stats.closed = true;
      }
    },
  };
}

test('a provider that takes no output limit is cut at the budget: the hard limit holds, its tool call is not run', async () => {
  const stats = { deltas: 0, closed: false };
  const limit = 3_000;
  const agent = new AgentSession({
    provider: unlimitedProvider(stats),
    model: 'claude-sonnet-4',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    budget: { session: { limit, mode: 'hard' } },
    sleep: () => Promise.resolve(),
  });
  assert.equal(await agent.send('Explain the code.'), 'budget');
  const s = agent.state();
  assert.ok(stats.deltas < 5_000, `read all ${stats.deltas} deltas`);
  assert.ok(stats.closed, 'the provider stream was closed');
  assert.ok(s.spentTokens! <= limit, `the budget counted ${s.spentTokens} of ${limit}`);
  assert.equal(s.calls.length, 1);
  assert.ok(!s.messages.some((m) => m.role === 'tool'), 'the cut answer’s tool call was not run');
  assert.match(s.messages.at(-1)!.content, /^The answer goes on/);
});
