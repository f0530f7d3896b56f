// The host's translation of agent events into the panel's chat view model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatModel, emptyChat, itemsFromMessages } from '../../src/extension/agent/chatModel';
import { applyChatPatches } from '../../src/protocol/chatPatch';
import type { AgentEvent } from '../../src/core/agent/events';

const prepared = (call: number, masked: { toolCallId: string; lines: number }[] = []): AgentEvent => ({
  type: 'context-prepared',
  turn: call,
  call,
  strategy: 'masking',
  retry: false,
  messages: 3,
  tokensSent: 100 * call,
  rawHistoryTokens: 150 * call,
  cachedTokens: 40,
  inputCost: 10,
  costSoFar: 10 * call,
  masked: masked.map((m, index) => ({ index, ...m, tool: 'run_command', storedAt: '.context-desk/x.txt' })),
  summarizedTurns: 0,
  estimated: false,
});

function run(events: AgentEvent[]): { model: ChatModel; mirrored: ReturnType<typeof emptyChat> } {
  const model = new ChatModel(emptyChat('s', 'masking', 1000, false));
  let mirrored = model.snapshot;
  mirrored = applyChatPatches(mirrored, model.userMessage('go', 1));
  for (const e of events) mirrored = applyChatPatches(mirrored, model.event(e));
  return { model, mirrored };
}

test('a turn with a tool call, masking later, and completion', () => {
  const { model, mirrored } = run([
    { type: 'turn-started', turn: 1, at: 1 },
    prepared(1),
    { type: 'text-delta', turn: 1, text: 'Look' },
    { type: 'text-delta', turn: 1, text: 'ing' },
    { type: 'tool-call-started', turn: 1, callId: 'c1', tool: 'run_command', arguments: '{}' },
    {
      type: 'tool-call-finished',
      turn: 1,
      callId: 'c1',
      tool: 'run_command',
      arguments: '{}',
      status: 'ok',
      durationMs: 5,
      preview: 'out',
      storedAt: '.context-desk/x.txt',
    },
    { type: 'call-finished', turn: 1, call: 1, outputTokens: 3, costSoFar: 12 },
    { type: 'turn-started', turn: 2, at: 2 },
    prepared(2, [{ toolCallId: 'c1', lines: 80 }]),
    { type: 'done', reason: 'completed', turns: 2 },
  ]);
  assert.deepEqual(mirrored, model.snapshot, 'the webview and the host agree');
  const a1 = model.snapshot.items.find((i) => i.kind === 'assistant' && i.turn === 1);
  assert.ok(a1?.kind === 'assistant');
  assert.equal(a1.text, 'Looking');
  assert.deepEqual(a1.tools[0], {
    callId: 'c1',
    tool: 'run_command',
    arguments: '{}',
    state: 'ok',
    durationMs: 5,
    preview: 'out',
    storedAt: '.context-desk/x.txt',
    masked: true,
    maskedLines: 80,
  });
  assert.equal(model.snapshot.status, 'completed');
  assert.equal(model.snapshot.meter.tokensInWindow, 200);
  assert.equal(model.snapshot.meter.maskedObservations, 1);
  assert.deepEqual(
    model.snapshot.series.map((p) => [p.sent, p.raw]),
    [
      [100, 150],
      [200, 300],
    ],
  );
  assert.ok(
    model.snapshot.items.every((i) => i.kind !== 'assistant' || !i.streaming),
    'nothing streams after done',
  );
});

test('a retry clears what the failed attempt streamed and says so', () => {
  const { model } = run([
    { type: 'turn-started', turn: 1, at: 1 },
    { type: 'text-delta', turn: 1, text: 'half an ans' },
    { type: 'retry', turn: 1, attempt: 1, reason: 'server error 500', delayMs: 500, filtered: true },
    { type: 'text-delta', turn: 1, text: 'A whole answer' },
  ]);
  const a = model.snapshot.items.find((i) => i.kind === 'assistant');
  assert.ok(a?.kind === 'assistant');
  assert.equal(a.text, 'A whole answer');
  assert.ok(model.snapshot.items.some((i) => i.kind === 'notice' && /retry filtering applied/.test(i.text)));
});

test('an auth error becomes a notice whose action configures the agent', () => {
  const { model } = run([
    { type: 'error', turn: 1, error: { kind: 'auth', message: '401 Unauthorized', status: 401 } },
    { type: 'stopped', reason: 'error', turns: 1, message: 'The provider refused the key' },
  ]);
  const notices = model.snapshot.items.filter((i) => i.kind === 'notice');
  assert.ok(notices.some((n) => n.kind === 'notice' && n.action?.action === 'configure' && /Set API Key/.test(n.text)));
  assert.equal(model.snapshot.status, 'error');
});

test('a resumed conversation becomes user items and assistant items with their tool cards', () => {
  const items = itemsFromMessages(
    's9',
    [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', name: 'run_command', arguments: '{"command":"npm test"}' },
          { id: 'c2', name: 'tail', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        content: 'preview',
        storedAt: '.context-desk/tool-outputs/s9/1-run_command.txt',
      },
      { role: 'assistant', content: 'Fixed.' },
    ],
    7,
  );
  assert.deepEqual(
    items.map((i) => [i.kind, i.id]),
    [
      ['user', 'u-1-7'],
      ['assistant', 'a-s9-1'],
      ['assistant', 'a-s9-2'],
    ],
  );
  const first = items[1]!;
  assert.ok(first.kind === 'assistant');
  assert.equal(first.text, 'Looking.');
  assert.equal(first.streaming, false);
  assert.deepEqual(first.tools[0], {
    callId: 'c1',
    tool: 'run_command',
    arguments: '{"command":"npm test"}',
    state: 'ok',
    preview: 'preview',
    storedAt: '.context-desk/tool-outputs/s9/1-run_command.txt',
  });
  assert.equal(first.tools[1]!.state, 'cancelled', 'a call without a result');
});
