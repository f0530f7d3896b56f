// The turn limit: the panel says which setting it is, offers to open it, and how to go on; the
// conversation does go on with the next message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { ChatProvider, ChatStreamEvent } from '../../../src/core/agent/provider';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import { createTokenizer } from '../../../src/core/tokens';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { applyChatPatches } from '../../../src/protocol/chatPatch';
import { statusText } from '../../../src/webview/lib/format';
import { echoTool } from './helpers';

/** Reads a file on every call until `reads` runs out, then answers. */
function reader(reads: number): ChatProvider {
  let n = 0;
  return {
    id: 'fake',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      const k = n++;
      if (k < reads) {
        yield { type: 'tool-call', call: { id: `c${k}`, name: 'read_file', arguments: `{"path":"f${k}.ts"}` } };
        yield { type: 'finish', reason: 'tool_calls' };
      } else {
        yield { type: 'text-delta', text: 'Done.' };
        yield { type: 'finish', reason: 'stop' };
      }
    },
  };
}

test('the turn limit names its setting, offers to open it, says how to go on, and the next message goes on', async () => {
  const agent = new AgentSession({
    provider: reader(3),
    model: 'fake',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    sleep: () => Promise.resolve(),
    maxTurns: 2,
  });
  const chat = new ChatModel(emptyChat('s', 'masking', 100_000, false));
  let view = applyChatPatches(chat.snapshot, chat.userMessage('Read the files.', 1));
  const seen: AgentEvent[] = [];
  agent.on((e) => {
    seen.push(e);
    view = applyChatPatches(view, chat.event(e));
  });
  assert.equal(await agent.send('Read the files.'), 'max-turns');
  assert.equal(statusText(view.status), 'Stopped: turn limit reached');
  const notices = view.items.filter((i) => i.kind === 'notice');
  assert.equal(notices.length, 1);
  const notice = notices[0]!;
  assert.ok(notice.kind === 'notice');
  assert.match(notice.text, /after 2 model calls/);
  assert.match(notice.text, /contextDesk\.agent\.maxTurns/);
  assert.match(notice.text, /continue/);
  assert.deepEqual(notice.action, { label: 'Open Setting', action: 'maxTurnsSetting' });

  // "continue": the same session goes on from where it stopped (the reads it made stay in its history).
  view = applyChatPatches(view, chat.userMessage('continue', 2));
  assert.equal(await agent.send('continue'), 'completed');
  assert.equal(view.status, 'completed');
  assert.equal(
    view.items.filter((i) => i.kind === 'notice').length,
    0,
    'the notice was about the stopped run: gone with the next message',
  );
  assert.equal(agent.messages.filter((m) => m.role === 'tool').length, 3);
});
