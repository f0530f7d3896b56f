import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyChatPatches } from '../../src/protocol/chatPatch';
import type { ChatPatch, ChatSnapshot } from '../../src/protocol/chat';

const empty: ChatSnapshot = {
  sessionId: 's1',
  status: 'idle',
  strategy: 'cache-aware',
  strategies: ['cache-aware', 'raw'],
  models: [],
  setup: { provider: 'openai-compatible', ready: true },
  items: [],
  meter: {
    tokensInWindow: 0,
    contextWindow: 128_000,
    cachedTokens: 0,
    rawHistoryTokens: 0,
    costUnits: 0,
    calls: 0,
    maskedObservations: 0,
    estimated: false,
  },
  series: [],
  pastSessions: [],
};

test('upserts items, streams text into the assistant item, and masks tool calls by id', () => {
  const s = applyChatPatches(empty, [
    { op: 'upsertItem', item: { kind: 'user', id: 'u1', text: 'fix the bug', at: 1 } },
    {
      op: 'upsertItem',
      item: {
        kind: 'assistant',
        id: 'a1',
        turn: 1,
        text: '',
        streaming: true,
        tools: [{ callId: 'c1', tool: 'grep', arguments: '{}', state: 'ok', storedAt: '.context-desk/x.txt' }],
      },
    },
    { op: 'appendText', id: 'a1', text: 'Look' },
    { op: 'appendText', id: 'a1', text: 'ing.' },
    { op: 'masked', callIds: ['c1'], lines: { c1: 42 } },
    { op: 'status', status: 'running' },
  ]);
  assert.equal(s.items.length, 2);
  const a = s.items[1]!;
  assert.equal(a.kind, 'assistant');
  assert.equal(a.kind === 'assistant' && a.text, 'Looking.');
  assert.deepEqual(a.kind === 'assistant' && a.tools[0], {
    callId: 'c1',
    tool: 'grep',
    arguments: '{}',
    state: 'ok',
    storedAt: '.context-desk/x.txt',
    masked: true,
    maskedLines: 42,
  });
  assert.equal(s.status, 'running');
  assert.equal(empty.items.length, 0, 'the input snapshot is not changed');
});

test('an approval is set and cleared', () => {
  const withApproval = applyChatPatches(empty, [
    { op: 'approval', approval: { id: 'p1', kind: 'command', title: 'Run command?', detail: 'npm test' } },
  ]);
  assert.equal(withApproval.approval?.id, 'p1');
  assert.equal('approval' in applyChatPatches(withApproval, [{ op: 'approval', approval: undefined }]), false);
});

test('the model list is replaced, leaving the rest of the snapshot alone', () => {
  const next = applyChatPatches(empty, [{ op: 'models', models: ['gpt-4o', 'claude-sonnet'] }]);
  assert.deepEqual(next.models, ['gpt-4o', 'claude-sonnet']);
  assert.deepEqual({ ...next, models: [] }, empty);
  assert.deepEqual(empty.models, [], 'the input snapshot is not changed');
});

test('applying patches one by one equals applying them at once', () => {
  const patch: fc.Arbitrary<ChatPatch> = fc.oneof(
    fc.record({ op: fc.constant('status' as const), status: fc.constantFrom('idle' as const, 'running' as const) }),
    fc.record({
      op: fc.constant('point' as const),
      point: fc.record({ call: fc.nat(), sent: fc.nat(), raw: fc.nat(), cached: fc.nat() }),
    }),
    fc.record({
      op: fc.constant('upsertItem' as const),
      item: fc.record({
        kind: fc.constant('user' as const),
        id: fc.constantFrom('a', 'b', 'c'),
        text: fc.string(),
        at: fc.nat(),
      }),
    }),
  );
  fc.assert(
    fc.property(fc.array(patch, { maxLength: 30 }), (patches) => {
      const stepwise = patches.reduce((s, p) => applyChatPatches(s, [p]), empty);
      assert.deepEqual(stepwise, applyChatPatches(empty, patches));
      assert.equal(new Set(stepwise.items.map((i) => i.id)).size, stepwise.items.length, 'ids stay unique');
    }),
  );
});

test('a patch or an item kind from a newer host is skipped; the patches around it still apply', () => {
  const unknown = [
    { op: 'highlight', id: 'u1' },
    { op: 'upsertItem', item: { kind: 'image', id: 'x1', src: 'a.png' } },
    null,
  ] as unknown as ChatPatch[];
  const s = applyChatPatches(empty, [
    { op: 'upsertItem', item: { kind: 'user', id: 'u1', text: 'go', at: 1 } },
    ...unknown,
    { op: 'status', status: 'running' },
  ]);
  assert.deepEqual(
    s.items.map((i) => i.id),
    ['u1'],
  );
  assert.equal(s.status, 'running');
  assert.equal(applyChatPatches(s, null as unknown as ChatPatch[]), s, 'no patch list: the snapshot as it was');
});
