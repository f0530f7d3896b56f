// A failure the loop does not expect (here the tokenizer throws on a tool's output, as tiktoken did on a
// run of letters of several MB) ends the run as an error; the next message goes on normally.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Message, Tokenizer } from '../../../src/core/messages';
import { createTokenizer } from '../../../src/core/tokens';
import { harness } from './helpers';

/** The real tokenizer, failing once on a message that holds `marker`. */
function failingOnceOn(marker: string): Tokenizer {
  const real = createTokenizer('o200k');
  let failed = false;
  const fails = (text: string): boolean => !failed && text.includes(marker) && (failed = true);
  return {
    name: real.name,
    exact: real.exact,
    count: (text) => {
      if (fails(text)) throw new RangeError('Maximum call stack size exceeded');
      return real.count(text);
    },
    countMessage: (m: Message) => {
      if (fails(m.content)) throw new RangeError('Maximum call stack size exceeded');
      return real.countMessage(m);
    },
  };
}

test('a throw inside the loop ends the run as an error and the session takes the next message', async (t) => {
  const h = await harness(
    [
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'huge.txt' } }] } },
      { reply: { text: 'Back again.' } },
    ],
    { tokenizer: failingOnceOn('huge.txt:1:') },
  );
  t.after(() => h.close());
  assert.equal(await h.agent.send('Read huge.txt.'), 'error');
  assert.equal(h.agent.state().status, 'error');
  const stopped = h.events.find((e) => e.type === 'stopped');
  assert.ok(stopped?.type === 'stopped' && /Maximum call stack/.test(stopped.message), JSON.stringify(stopped));
  assert.equal(await h.agent.send('Go on.'), 'completed');
  assert.equal(h.agent.messages.at(-1)?.content, 'Back again.');
});

// The throw came after the action was kept and before its other calls were answered: every later request
// of the chat held a call without a result, which the providers refuse ("tool_call_ids did not have
// response messages"), so the chat could not go on.
test('a throw between the results of one action leaves every call answered for the next message', async (t) => {
  const h = await harness(
    [
      {
        reply: {
          text: 'Reading both.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'huge.txt' } },
            { name: 'read_file', arguments: { path: 'small.txt' } },
          ],
        },
      },
      { reply: { text: 'Back again.' } },
    ],
    { tokenizer: failingOnceOn('huge.txt:1:') },
  );
  t.after(() => h.close());
  assert.equal(await h.agent.send('Read huge.txt and small.txt.'), 'error');
  assert.equal(await h.agent.send('Go on.'), 'completed');
  const next = h.server.chatRequests()[1]!.messages;
  const action = next.findIndex((m) => (m.tool_calls?.length ?? 0) === 2);
  const ids = next[action]!.tool_calls!.map((c) => c.id);
  assert.deepEqual(
    next.slice(action + 1, action + 3).map((m) => [m.role, m.tool_call_id]),
    ids.map((id) => ['tool', id]),
    'each call answered, right after its action',
  );
  assert.deepEqual(
    next.slice(action + 3).map((m) => [m.role, m.content]),
    [['user', 'Go on.']],
    'then the next message',
  );
  assert.match(next[action + 2]!.content ?? '', /not recorded.*may have run/);
});
