// Servers that reuse tool-call ids (two calls of one answer, or every turn) or send none: the session
// keeps ids unique, so each result pairs with its own call in requests, in the history file and on resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { uniqueCallIds } from '../../../src/core/agent/call-ids';
import { maskedFromHistory, messagesFromHistory } from '../../../src/core/agent/resume';
import { silentLogger } from '../../../src/core/ports';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, loadSession } from '../../../src/core/store/history';
import { HistorySink, SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { tempDir } from '../store/helpers';
import { harness } from './helpers';

const read = (file: string, id: string) => ({ name: 'read_file', arguments: { path: file }, id });

test('reused ids get a suffix: requests, the history file and a resumed session pair every result', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const sink = new HistorySink();
  const h = await harness(
    [
      { reply: { text: 'Two reads.', toolCalls: [read('a.ts', 'call_0'), read('b.ts', 'call_0')] } },
      { reply: { text: 'Another.', toolCalls: [read('c.ts', 'call_0')] } },
      { reply: { text: 'And one more.', toolCalls: [read('d.ts', 'call_0')] }, wholeToolCalls: true },
      { reply: { text: 'Done.' } },
    ],
    { strategy: 'masking', strategyOptions: { window: 1 }, onCall: sink.onCall, onMessage: sink.onMessage },
  );
  t.after(() => h.close());
  const history = SessionHistory.open(await HistoryWriter.open(store, 'ids'), 0, [], silentLogger);
  sink.session = h.agent;
  sink.history = history;
  h.agent.on((e) => {
    if (e.type === 'context-prepared' && e.masked.length > 0) void history.masked(e.masked);
  });
  assert.equal(await h.agent.send('Read the files.'), 'completed');
  await history.sync(h.agent.messages);
  await history.close();

  const live = h.agent.messages;
  const ids = live.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id));
  assert.equal(ids.length, 4);
  assert.equal(new Set(ids).size, 4, `unique: ${ids.join(', ')}`);
  assert.deepEqual(
    live.filter((m) => m.role === 'tool').map((m) => m.toolCallId),
    ids,
    'each result answers its own call',
  );
  const last = h.server.chatRequests().at(-1)!;
  const sentIds = last.messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id as string] : []));
  assert.equal(new Set(sentIds).size, sentIds.length, 'no two tool messages share a tool_call_id');

  const { records } = await loadSession(store, 'ids');
  assert.deepEqual(messagesFromHistory(records), live, 'resuming reads back the live conversation');
  const masked = [...maskedFromHistory(records).keys()];
  assert.ok(masked.length > 0);
  for (const id of masked) assert.ok(ids.includes(id));
});

test('an empty id or one used before gets the first free suffix; fresh ids are kept', () => {
  const earlier = [
    { role: 'assistant' as const, content: '', toolCalls: [{ id: 'x', name: 't', arguments: '{}' }] },
    { role: 'tool' as const, content: 'ok', toolCallId: 'x' },
  ];
  const calls = ['x', 'x', '', '', 'fresh', 'x_1'].map((id) => ({ id, name: 't', arguments: '{}' }));
  assert.deepEqual(
    uniqueCallIds(calls, earlier).map((c) => c.id),
    ['x_1', 'x_2', 'call_1', 'call_2', 'fresh', 'x_1_1'],
  );
});
