// JSON a model nests deeper than the stack allows (JSON.parse reads it, JSON.stringify and recursive
// walks overflow): the call is refused with a reason the model can act on, the session goes on, the
// chat history keeps every message with its secrets redacted, and an Anthropic request still serialises.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { JsonDepthMeter, MAX_JSON_DEPTH, nestedDeeperThan, textNestedDeeperThan } from '../../../src/core/json-depth';
import { silentLogger, type Logger } from '../../../src/core/ports';
import { toAnthropicRequest } from '../../../src/core/providers/anthropic-messages';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, isMessageRecord, loadSession } from '../../../src/core/store/history';
import { SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { tempDir } from '../store/helpers';
import { harness } from './helpers';

const DEPTH = 20_000;
const TOKEN = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
const deepArgs = `{"path":${'['.repeat(DEPTH)}"${TOKEN}"${']'.repeat(DEPTH)}}`;

test('depth is measured without recursion, in values and in text (brackets inside strings do not count)', () => {
  const nested = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
  assert.equal(nestedDeeperThan(nested(MAX_JSON_DEPTH)), false);
  assert.equal(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(nestedDeeperThan(nested(DEPTH)), true);
  assert.equal(nestedDeeperThan({ a: [{ b: 1 }], c: 'x' }, 3), false);
  assert.equal(nestedDeeperThan({ a: [{ b: {} }] }, 3), true);
  assert.equal(textNestedDeeperThan(deepArgs), true);
  assert.equal(textNestedDeeperThan(`{"a":"${'['.repeat(DEPTH)}\\"{{"}`), false, 'brackets in strings');
  assert.equal(textNestedDeeperThan('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)), false);
});

test('property: text measured in pieces (a streamed file) is judged as the whole text is', () => {
  const text = fc.oneof(
    fc.json(),
    fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a') }), // escapes cut at any point
  );
  fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 0, max: 4 }), (t, cuts, limit) => {
      const at = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((from, i) => t.slice(from, at[i] ?? t.length));
      const meter = new JsonDepthMeter(limit);
      const deep = pieces.some((p) => meter.feed(p));
      const depth = (() => {
        try {
          return nestedDeeperThan(JSON.parse(t), limit);
        } catch {
          return undefined;
        }
      })();
      assert.equal(deep, textNestedDeeperThan(t, limit));
      if (depth !== undefined) assert.equal(deep, depth, t);
    }),
    { numRuns: 500 },
  );
});

test('a tool call nested too deeply is refused with the reason; the session goes on', async () => {
  const h = await harness([
    { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: deepArgs }] } },
    { reply: { text: 'Done.' } },
  ]);
  try {
    assert.equal(await h.agent.send('Read it'), 'completed');
    const result = h.agent.state().messages.find((m) => m.role === 'tool');
    assert.match(result!.content, new RegExp(`nest more than ${MAX_JSON_DEPTH} levels deep`));
    assert.equal(h.server.chatRequests().length, 2);
  } finally {
    await h.close();
  }
});

test('the chat history keeps a deeply nested call, redacted, and every message after it', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const errors: string[] = [];
  const logger: Logger = { ...silentLogger, error: (m: string) => void errors.push(m) };
  const history = SessionHistory.open(await HistoryWriter.open(store, 'deep'), 0, [], logger);
  await history.sync([
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Read it' },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: deepArgs }] },
    { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'refused' },
    { role: 'assistant', content: 'Done.' },
  ]);
  await history.close();
  assert.deepEqual(errors, []);
  const { records } = await loadSession(store, 'deep');
  assert.equal(records.filter(isMessageRecord).length, 5, 'nothing after the deep call is lost');
  const text = await fsp.readFile(store.historyPaths('deep').jsonl, 'utf8');
  assert.ok(!text.includes(TOKEN), 'the token inside the deep arguments is redacted');
});

test('an Anthropic request with deeply nested arguments still serialises (sent as text)', () => {
  const { messages } = toAnthropicRequest([
    { role: 'user', content: 'Read it' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: deepArgs }] },
    { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'refused' },
  ]);
  const body = JSON.stringify(messages);
  assert.ok(body.includes('_unparsed_arguments'));
});
