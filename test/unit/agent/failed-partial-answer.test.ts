// A provider error in the middle of an answer that is not retried (or whose retries ran out) ends the run
// with what streamed on the panel. The model and a resume must see that text too, as for a Stop: else the
// person answers something the model never said ("yes, do that") and it has no idea what "that" is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { applyChatPatches } from '../../../src/protocol/chatPatch';
import { harness } from './helpers';

test('an answer cut by a provider error stays in the conversation as far as the panel showed it', async () => {
  const h = await harness(
    [{ fault: 'mid-stream-error', text: 'I will rename config.ts to settings.ts' }, { reply: { text: 'Renamed.' } }],
    { retry: { maxRetries: 0 } },
  );
  try {
    const chat = new ChatModel(emptyChat('s', 'masking', 100_000, false));
    let view = applyChatPatches(chat.snapshot, chat.userMessage('Tidy the config', 1));
    h.agent.on((e) => (view = applyChatPatches(view, chat.event(e))));
    assert.equal(await h.agent.send('Tidy the config'), 'error');
    const shown = view.items.flatMap((i) => (i.kind === 'assistant' && i.text ? [i.text] : []));
    assert.deepEqual(shown, ['I will rename config.ts to settings.ts']);
    assert.deepEqual(
      h.agent.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'Tidy the config'],
        ['assistant', 'I will rename config.ts to settings.ts'],
      ],
    );

    assert.equal(await h.agent.send('yes, do that'), 'completed');
    const second = h.server.chatRequests()[1]!;
    assert.deepEqual(
      second.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'Tidy the config'],
        ['assistant', 'I will rename config.ts to settings.ts'],
        ['user', 'yes, do that'],
      ],
    );
    // Its turn counts, as a resume counts assistant messages: turn numbers match across a resume.
    assert.equal(h.agent.state().turns, 2);
  } finally {
    await h.close();
  }
});
