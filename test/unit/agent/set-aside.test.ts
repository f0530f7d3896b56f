// A person's message that alone is over the model's window is not sent and is set aside: the chat goes on
// without it (the next message works), and its history file leaves it out of a resume and of the title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, loadSession } from '../../../src/core/store/history';
import { forkHistory } from '../../../src/core/store/history-fork';
import { messagesFromHistory, sessionStateFromHistory } from '../../../src/core/agent/resume';
import { summarizeRecords } from '../../../src/core/agent/history-summary';
import { silentLogger } from '../../../src/core/ports';
import { HistorySink, SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { loadTrajectoryFile } from '../../../src/core/trajectories/load';
import { harness, readSteps } from './helpers';
import { tempDir } from '../store/helpers';

const BIG = 'word '.repeat(3_000); // ~3,000 tokens, over a 2,000-token window on its own

test('a message alone over the window is set aside: told, never sent, and the next message works', async () => {
  for (const strategy of ['cache-aware', 'masking', 'hybrid', 'summary', 'sliding-window', 'raw'] as const) {
    // Spare replies: hybrid and summary ask the model for summaries while they try to make room.
    const spare = Array.from({ length: 6 }, () => ({ reply: { text: 'Hello.' } }));
    const h = await harness([...readSteps(1), { reply: { text: 'Read.' } }, ...spare], {
      strategy,
      strategyOptions: { contextWindow: 2_000 },
    });
    try {
      assert.equal(await h.agent.send('Read one file.'), 'completed', strategy);
      const before = structuredClone(h.agent.state());
      assert.equal(await h.agent.send(BIG), 'error', strategy);
      const stopped = h.events.findLast((e) => e.type === 'stopped');
      assert.ok(stopped?.type === 'stopped');
      assert.equal(stopped.setAside, true, `${strategy}: the stop says the message was set aside`);
      assert.match(stopped.message, /Your message alone needs 3,0\d\d tokens/, strategy);
      assert.match(stopped.message, /it was not sent, and it is left out of this chat/, strategy);
      assert.doesNotMatch(stopped.message, /start a new chat/, strategy);
      // The conversation and the strategy's state are as the model last saw them.
      const after = h.agent.state();
      assert.deepEqual(after.messages, before.messages, strategy);
      assert.deepEqual(after.strategyState, before.strategyState, strategy);
      assert.equal(await h.agent.send('Say hello.'), 'completed', `${strategy}: the next message goes through`);
      const sent = h.server
        .chatRequests()
        .at(-1)!
        .messages.map((m) => String(m.content ?? ''));
      assert.ok(sent.includes('Say hello.') && sent.includes('Read one file.'), strategy);
      assert.ok(!sent.some((c) => c.includes('word word')), `${strategy}: the set-aside message is never sent`);
    } finally {
      await h.close();
    }
  }
});

test('a resume brings back what the model saw: the set-aside message is out of the file, the title, and a fork', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const sink = new HistorySink();
  const h = await harness([{ reply: { text: 'Hello.' } }], {
    strategy: 'cache-aware',
    strategyOptions: { contextWindow: 2_000 },
    onCall: sink.onCall,
    onMessage: sink.onMessage,
    onSetAside: sink.onSetAside,
    onStrategyState: sink.onStrategyState,
  });
  t.after(() => h.close());
  sink.session = h.agent;
  sink.history = SessionHistory.open(await HistoryWriter.open(store, 'chat-a'), 0, [], silentLogger);
  assert.equal(await h.agent.send(BIG), 'error');
  assert.equal(await h.agent.send('Say hello.'), 'completed');
  await sink.history.close();

  const { records } = await loadSession(store, 'chat-a');
  const live = h.agent.state().messages;
  assert.deepEqual(messagesFromHistory(records), live);
  const resumed = sessionStateFromHistory(records, {
    id: 'chat-a',
    provider: 'openai',
    model: 'scripted',
    strategy: 'cache-aware',
    now: 0,
  });
  assert.deepEqual(resumed.messages, live);
  assert.deepEqual(resumed.strategyState, h.agent.state().strategyState, 'the strategy goes on as it was');
  assert.equal(summarizeRecords(records).title, 'Say hello.');
  const forked = await forkHistory(store, records, 'chat-b');
  assert.deepEqual(messagesFromHistory(forked), live);
  assert.deepEqual(messagesFromHistory((await loadSession(store, 'chat-b')).records), live);
  // Replay of the file counts what the model was sent: the set-aside message is in no call's context.
  const [replayed] = await loadTrajectoryFile(path.join(store.folder('history'), 'chat-a.jsonl'));
  assert.deepEqual(
    replayed!.messages.map((m) => m.content),
    live.map((m) => m.content),
  );
});

test('the panel marks the set-aside message not sent, as the chat controller wires it', async (t) => {
  const { ChatModel, emptyChat } = await import('../../../src/extension/agent/chatModel');
  const model = new ChatModel(emptyChat('s', 'cache-aware', 2_000, false));
  const h = await harness([{ reply: { text: 'Hello.' } }], {
    strategy: 'cache-aware',
    strategyOptions: { contextWindow: 2_000 },
    onSetAside: (m) => model.setAside(m.content),
  });
  t.after(() => h.close());
  h.agent.on((e) => model.event(e));
  model.userMessage(BIG, 1);
  assert.equal(await h.agent.send(BIG), 'error');
  model.userMessage('Say hello.', 2);
  assert.equal(await h.agent.send('Say hello.'), 'completed');
  const users = model.snapshot.items.filter((i) => i.kind === 'user');
  assert.deepEqual(
    users.map((u) => u.kind === 'user' && [u.text === BIG, u.notSent === true]),
    [
      [true, true],
      [false, false],
    ],
  );
});
