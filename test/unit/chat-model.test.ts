// The host's translation of agent events into the panel's chat view model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ChatModel,
  budgetState,
  emptyChat,
  itemsFromMessages,
  outputLinesOf,
} from '../../src/extension/agent/chatModel';
import type { ChatToolCall } from '../../src/protocol/chat';
import { applyChatPatches } from '../../src/protocol/chatPatch';
import { statusText } from '../../src/webview/lib/format';
import { fullOutputLine } from '../../src/core/store/tool-outputs';
import type { AgentEvent } from '../../src/core/agent/events';
import type { CallRecord } from '../../src/core/agent/session-state';
import { costLabel } from '../../src/webview/lib/labels';
import { meterFromLog } from '../../src/extension/agent/meter';

const record = (call: number, cost: number): CallRecord => ({
  turn: call,
  call,
  retry: false,
  tokensSent: 100 * call,
  rawHistoryTokens: 150 * call,
  cachedTokens: 40,
  outputTokens: 3,
  cost,
  at: call,
});

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

// A stored output's preview as the store writes it: head, tail and the Full output line.
const STORED_PREVIEW = `out\n[... 78 lines omitted ...]\nend\n${fullOutputLine(80, 900, '.context-desk/x.txt')}`;

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
      preview: STORED_PREVIEW,
      storedAt: '.context-desk/x.txt',
    },
    { type: 'call-finished', turn: 1, call: 1, outputTokens: 3, record: record(1, 12), costSoFar: 12 },
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
    preview: STORED_PREVIEW,
    storedAt: '.context-desk/x.txt',
    outputLines: 80,
    masked: true,
    maskedLines: 80,
    placeholder: 'Old environment output: (80 lines omitted; full text: .context-desk/x.txt)',
  });
  assert.equal(model.snapshot.status, 'completed');
  assert.equal(model.snapshot.meter.tokensInWindow, 200);
  assert.equal(model.snapshot.meter.maskedObservations, 1);
  assert.equal(model.snapshot.meter.maskedStored, 1);
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

test('a retry clears what the failed attempt streamed and says so on one quiet line', () => {
  const { model } = run([
    { type: 'turn-started', turn: 1, at: 1 },
    { type: 'text-delta', turn: 1, text: 'half an ans' },
    { type: 'error', turn: 1, error: { kind: 'server', message: 'HTTP 500', status: 500 } },
    { type: 'retry', turn: 1, attempt: 1, reason: 'server', delayMs: 2000, filtered: true },
  ]);
  assert.equal(
    model.snapshot.activity,
    'Retrying in 2 s (attempt 2): the provider had a server error; tool traffic filtered…',
  );
  const after = model.event({ type: 'text-delta', turn: 1, text: 'A whole answer' });
  assert.ok(after.length > 0);
  const a = model.snapshot.items.find((i) => i.kind === 'assistant');
  assert.ok(a?.kind === 'assistant');
  assert.equal(a.text, 'A whole answer');
  assert.ok(!model.snapshot.items.some((i) => i.kind === 'notice'), 'a retried error piles up no notice');
  model.event({ type: 'call-finished', turn: 1, call: 2, outputTokens: 3, record: record(2, 0), costSoFar: 12 });
  assert.equal(model.snapshot.activity, undefined, 'the status line clears once a call goes through');
});

test('an error retried until the run gives up shows once, names the URL and the fix, and clears on the next run', () => {
  const model = new ChatModel(
    emptyChat('s', 'masking', 1000, false, {
      provider: 'openai-compatible',
      ready: true,
      endpoint: 'http://127.0.0.1:9/v1',
    }),
  );
  let mirrored = applyChatPatches(model.snapshot, model.userMessage('go', 1));
  const refused = { kind: 'network' as const, message: 'connect ECONNREFUSED 127.0.0.1:9', unreachable: true };
  for (let attempt = 1; attempt <= 3; attempt++) {
    mirrored = applyChatPatches(mirrored, model.event({ type: 'error', turn: 1, error: refused }));
    if (attempt < 3)
      mirrored = applyChatPatches(
        mirrored,
        model.event({ type: 'retry', turn: 1, attempt, reason: 'network', delayMs: 0, filtered: false }),
      );
  }
  mirrored = applyChatPatches(
    mirrored,
    model.event({ type: 'stopped', reason: 'error', turns: 1, message: refused.message }),
  );
  assert.deepEqual(mirrored, model.snapshot);
  const notices = model.snapshot.items.filter((i) => i.kind === 'notice');
  assert.equal(notices.length, 1, 'one error, not one per attempt');
  const n = notices[0]!;
  assert.ok(n.kind === 'notice');
  assert.match(n.text, /http:\/\/127\.0\.0\.1:9\/v1/);
  assert.match(n.text, /ECONNREFUSED/);
  assert.equal(n.action?.action, 'configure');
  assert.equal(model.snapshot.activity, undefined);
  assert.equal(model.snapshot.status, 'error');
  // The next run starts clean.
  mirrored = applyChatPatches(mirrored, model.userMessage('again', 2));
  assert.deepEqual(mirrored, model.snapshot);
  assert.ok(!model.snapshot.items.some((i) => i.kind === 'notice'), 'the stale error is gone');
});

test('a URL carried by the error wins over the configured endpoint', () => {
  const { model } = run([
    {
      type: 'error',
      turn: 1,
      error: {
        kind: 'auth',
        message: '401 Unauthorized',
        status: 401,
        url: 'https://api.example/v1/chat/completions',
      } as never,
    },
    { type: 'stopped', reason: 'error', turns: 1, message: 'The provider refused the key' },
  ]);
  const notices = model.snapshot.items.filter((i) => i.kind === 'notice');
  assert.equal(notices.length, 1);
  const n = notices[0]!;
  assert.ok(n.kind === 'notice' && n.action?.action === 'configure');
  assert.match(n.text, /https:\/\/api\.example\/v1\/chat\/completions refused the API key/);
});

test('budget: a hard refusal is not "over the limit", a denied or abandoned approval leaves it where it was', () => {
  const base = { level: 'session' as const, at: 1, used: 910, limit: 1000 };
  assert.equal(
    budgetState({ ...base, type: 'exceeded', requested: 200, mode: 'hard', refused: true }, undefined).state,
    'refused',
  );
  assert.equal(budgetState({ ...base, type: 'approval-denied', requested: 200 }, undefined).state, 'warning');
  assert.equal(budgetState({ ...base, used: 100, type: 'approval-denied', requested: 200 }, undefined).state, 'ok');
  assert.equal(
    budgetState({ ...base, used: 1100, type: 'approval-granted', requested: 200 }, undefined).state,
    'exceeded',
  );
  assert.equal(
    budgetState({ ...base, type: 'exceeded', requested: 200, mode: 'soft', refused: false }, undefined).state,
    'exceeded',
  );
  assert.equal(
    budgetState({ ...base, type: 'exceeded', requested: 200, mode: 'soft', refused: false }, undefined).usedPercent,
    91,
  );
});

test("money is shown when the price is known, and only then; at rest it is the recorded calls' sum", () => {
  const money = { usdPerUnit: 2e-6, model: 'gpt-4o', source: 'default' as const, asOf: '2026-11-24' };
  const priced = new ChatModel(emptyChat('s', 'masking', 1000, false), { money });
  priced.userMessage('go', 1);
  priced.event(prepared(1));
  assert.equal(priced.snapshot.meter.costUsd, 10 * 2e-6, 'the call in flight at the model price');
  assert.deepEqual(priced.snapshot.meter.price, { model: 'gpt-4o', source: 'default', asOf: '2026-11-24' });
  // The record says what the call cost in money (e.g. billed by the provider's usage): that is the figure.
  priced.event({
    type: 'call-finished',
    turn: 1,
    call: 1,
    outputTokens: 3,
    record: { ...record(1, 22), costUsd: 0.000044, usage: { inputTokens: 120, cachedTokens: 40 } },
    costSoFar: 22,
  });
  const m = priced.snapshot.meter;
  assert.equal(m.costUnits, 22);
  assert.equal(m.costUsd, 0.000044);
  assert.deepEqual(m.reported, { inputTokens: 120, cachedTokens: 40 });
  assert.deepEqual(m.totals, {
    tokensSent: 100,
    cachedTokens: 40,
    outputTokens: 3,
    reportedCalls: 1,
    reportedInputTokens: 120,
    reportedCachedTokens: 40,
  });
  const { model } = run([prepared(1)]);
  assert.equal(model.snapshot.meter.costUsd, undefined);
  assert.equal(model.snapshot.meter.costUnits, 10);
});

test('a call billed without a known price leaves no partial money in the meter', () => {
  const money = { usdPerUnit: 1e-6, model: 'm', source: 'setting' as const };
  const priced = new ChatModel(emptyChat('s', 'masking', 1000, false), { money });
  priced.event({ type: 'call-finished', turn: 1, call: 1, outputTokens: 3, record: record(1, 50), costSoFar: 50 });
  assert.equal(priced.snapshot.meter.costUsd, undefined, 'the record had no money: the sum is unknown');
});

test('a stored output gets its full line count from the preview line, or later from the host', () => {
  const preview =
    'head\n[... 1420 lines omitted ...]\ntail\nFull output (1502 lines, 9000 tokens): .context-desk/o.txt - read, tail or grep it';
  const { model } = run([
    { type: 'turn-started', turn: 1, at: 1 },
    { type: 'tool-call-started', turn: 1, callId: 'c1', tool: 'grep', arguments: '{}' },
    {
      type: 'tool-call-finished',
      turn: 1,
      callId: 'c1',
      tool: 'grep',
      arguments: '{}',
      status: 'ok',
      durationMs: 1,
      preview,
      storedAt: '.context-desk/o.txt',
    },
    { type: 'tool-call-started', turn: 1, callId: 'c2', tool: 'grep', arguments: '{}' },
    {
      type: 'tool-call-finished',
      turn: 1,
      callId: 'c2',
      tool: 'grep',
      arguments: '{}',
      status: 'ok',
      durationMs: 1,
      preview: 'cut…',
      storedAt: '.context-desk/p.txt',
    },
  ]);
  const tools = (): ChatToolCall[] => {
    const a = model.snapshot.items.find((i) => i.kind === 'assistant');
    return a?.kind === 'assistant' ? a.tools : [];
  };
  assert.equal(tools()[0]!.outputLines, 1502);
  assert.equal(tools()[1]!.outputLines, undefined, 'a cut preview does not guess');
  assert.equal(tools()[1]!.shownWhole, undefined, 'nor whether it was whole');
  model.storedOutput('c2', `${'x\n'.repeat(40)}…\nFull output (77 lines, 9 tokens): p.txt - read, tail or grep it`);
  assert.equal(tools()[1]!.outputLines, 77);
  assert.equal(tools()[1]!.shownWhole, undefined, 'a preview');
  model.storedOutput('c2', 'a\nb\n');
  assert.deepEqual([tools()[1]!.outputLines, tools()[1]!.shownWhole], [2, true], 'a short output, whole');
  assert.equal(
    outputLinesOf('a file that mentions\nFull output (5 lines, 1 tokens): x - read, tail or grep it\nand goes on'),
    undefined,
  );
});

const PREVIEW = 'head\n…\nFull output (1200 lines, 9000 tokens): x - read, tail or grep it';

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
        content: PREVIEW,
        storedAt: '.context-desk/tool-outputs/s9/1-run_command.txt',
      },
      { role: 'assistant', content: 'Fixed.' },
    ],
    7,
    new Map([
      ['c1', { placeholder: 'Old environment output: (80 lines omitted; full text: x)', lines: 80, storedAt: 'x' }],
    ]),
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
    preview: PREVIEW,
    outputLines: 1200,
    storedAt: '.context-desk/tool-outputs/s9/1-run_command.txt',
    masked: true,
    maskedLines: 80,
    placeholder: 'Old environment output: (80 lines omitted; full text: x)',
  });
  assert.equal(first.tools[1]!.state, 'cancelled', 'a call without a result');
});

test('a warning (a summary that failed while the run goes on) is shown as a notice until the next message', () => {
  const message = 'Summarizing the earlier turns failed (server error). The agent goes on with them kept as they are.';
  const { model, mirrored } = run([
    { type: 'warning', turn: 32, message },
    prepared(32),
    { type: 'done', reason: 'completed', turns: 32 },
  ]);
  assert.deepEqual(mirrored, model.snapshot);
  const notices = model.snapshot.items.filter((i) => i.kind === 'notice');
  assert.equal(notices.length, 1);
  assert.ok(notices[0]!.kind === 'notice' && notices[0]!.level === 'warning' && notices[0]!.text === message);
  assert.equal(model.snapshot.status, 'completed');
  model.userMessage('again', 2);
  assert.ok(!model.snapshot.items.some((i) => i.kind === 'notice'), 'gone with the next message');
});

test('budget: the line follows every call, from the count after its spend, live and after a resume', async () => {
  const { AgentSession } = await import('../../src/core/agent/session');
  const { ToolRegistry } = await import('../../src/core/agent/tool-registry');
  const { createTokenizer } = await import('../../src/core/tokens');
  const { SESSION_STATE_VERSION } = await import('../../src/core/agent/session-state');
  const body = 'def f(x):\n    return x * 2\n'.repeat(200);
  const tools = new ToolRegistry([
    {
      name: 'read_file',
      description: 'Reads a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      run: (a) => Promise.resolve({ ok: true, text: `${String(a.path)}\n${body}` }),
    },
  ]);
  let n = 0;
  const provider = {
    id: 'fake',
    async *chat() {
      n++;
      yield { type: 'usage' as const, usage: { outputTokens: 20 } };
      if (n < 7)
        yield {
          type: 'tool-call' as const,
          call: { id: `t${n}`, name: 'read_file', arguments: `{"path":"f${n}.py"}` },
        };
      else yield { type: 'text-delta' as const, text: 'done' };
    },
  };
  // A session resumed at 30,000 of a 60,000-token soft budget: the meter starts at 50%.
  const earlier = { ...record(1, 120), budget: { spentTokens: 30000, limit: 60000, mode: 'soft' } };
  const restore = {
    version: SESSION_STATE_VERSION as typeof SESSION_STATE_VERSION,
    id: 's',
    createdAt: 1,
    provider: 'fake',
    model: 'm',
    strategy: 'raw' as const,
    messages: [
      { role: 'system' as const, content: 'sys' },
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: 'ok' },
    ],
    turns: 1,
    calls: [earlier],
    summaryCalls: [],
    cost: 120,
    spentTokens: 30000,
    status: 'idle' as const,
  };
  const agent = new AgentSession({
    provider,
    model: 'm',
    tools,
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'sys',
    strategy: 'raw',
    budget: { session: { limit: 60000, mode: 'soft' } },
    sleep: () => Promise.resolve(),
    restore,
  });
  const snap = emptyChat('s', 'raw', 128000, false);
  snap.meter = { ...snap.meter, budget: { state: 'ok', usedPercent: 50, limit: 60000 } };
  const model = new ChatModel(snap);
  const seen: { spent: number; shown: string }[] = [];
  agent.on((e) => {
    model.event(e);
    if (e.type !== 'call-finished') return;
    const b = model.snapshot.meter.budget;
    seen.push({ spent: e.record.budget!.spentTokens, shown: `${b?.usedPercent}% ${b?.state}` });
  });
  await agent.send('go on');
  assert.ok(seen.length >= 5, JSON.stringify(seen));
  for (const { spent, shown } of seen) {
    const state = spent > 60000 ? 'exceeded' : spent >= 48000 ? 'warning' : 'ok';
    assert.equal(shown, `${(spent / 60000) * 100}% ${state}`, `spent ${spent}`);
  }
  assert.ok(seen.some((s) => s.spent > 60000) && seen.some((s) => s.spent < 48000), JSON.stringify(seen));
});

test('budget: slowing down shows the use after the spend it delays, and over the limit wins', () => {
  const base = { level: 'session' as const, at: 1, used: 52670, limit: 60000 };
  const slow = budgetState({ ...base, type: 'backpressure', ratio: 0.9, delayMs: 750 }, undefined);
  assert.deepEqual(slow, { state: 'backpressure', usedPercent: 90, limit: 60000 });
  const over = budgetState({ ...base, type: 'backpressure', ratio: 63865 / 60000, delayMs: 1500 }, undefined);
  assert.deepEqual(over, { state: 'exceeded', usedPercent: (63865 / 60000) * 100, limit: 60000 });
});

test('budget: a summary call moves the line too, against the limit it shows', () => {
  const model = new ChatModel(emptyChat('s', 'summary', 1000, false));
  model.event({
    type: 'call-finished',
    turn: 1,
    call: 1,
    outputTokens: 3,
    record: { ...record(1, 10), budget: { spentTokens: 500, limit: 1000, mode: 'soft' } },
    costSoFar: 10,
  });
  assert.deepEqual(model.snapshot.meter.budget, { state: 'ok', usedPercent: 50, limit: 1000 });
  model.event({
    type: 'summary-call',
    record: { inputTokens: 300, outputTokens: 50, cost: 400, budget: { spentTokens: 850 } },
    costSoFar: 410,
  });
  assert.deepEqual(model.snapshot.meter.budget, { state: 'warning', usedPercent: 85, limit: 1000 });
});

test('a message the session set aside is marked not sent, in the host copy and the panel alike', () => {
  const model = new ChatModel(emptyChat('s', 'masking', 1000, false));
  const panel = applyChatPatches(model.snapshot, [
    ...model.userMessage('same words', 1),
    ...model.event({ type: 'done', reason: 'completed', turns: 1 }),
    ...model.userMessage('same words', 2),
  ]);
  const patches = model.setAside('same words');
  const mirrored = applyChatPatches(panel, patches);
  assert.deepEqual(mirrored, model.snapshot);
  const users = model.snapshot.items.filter((i) => i.kind === 'user');
  assert.deepEqual(
    users.map((u) => u.kind === 'user' && u.notSent === true),
    [false, true],
    'only the latest message with that text (the one of this run) is marked',
  );
  assert.deepEqual(model.setAside('never said'), [], 'no item, no patch');
});

test('a run stopped because the message was set aside says "Not sent", with a warning, not "Failed"', () => {
  const model = new ChatModel(emptyChat('s', 'masking', 1000, false));
  model.userMessage('a very long message', 1);
  model.setAside('a very long message');
  const why = 'The context does not fit … it was not sent, and it is left out of this chat';
  model.event({ type: 'stopped', reason: 'error', turns: 0, message: why, setAside: true });
  assert.equal(model.snapshot.status, 'not-sent');
  assert.equal(statusText(model.snapshot.status), 'Not sent: too long for the window');
  const notices = model.snapshot.items.filter((i) => i.kind === 'notice');
  assert.deepEqual(
    notices.map((n) => n.kind === 'notice' && [n.level, n.text]),
    [['warning', why]],
  );
  // A real failure still reads as one.
  model.userMessage('next', 2);
  model.event({ type: 'stopped', reason: 'error', turns: 0, message: 'boom' });
  assert.equal(model.snapshot.status, 'error');
});

test('a short output kept in a file shows its own line count, as an unstored one does', () => {
  const model = new ChatModel(emptyChat('s', 'masking', 1000, false));
  model.event({ type: 'turn-started', turn: 1, at: 1 });
  model.event({ type: 'tool-call-started', turn: 1, callId: 'c1', tool: 'read_file', arguments: '{}' });
  const shown = { turn: 1, callId: 'c1', tool: 'read_file', arguments: '{}', status: 'ok' as const, durationMs: 1 };
  model.event({
    type: 'tool-call-finished',
    ...shown,
    preview: 'a\nb\nc\n',
    storedAt: '.context-desk/t/0001-read_file.txt',
  });
  const a = model.snapshot.items.find((i) => i.kind === 'assistant');
  assert.ok(a?.kind === 'assistant');
  assert.equal(a.tools[0]!.outputLines, 3);
  assert.equal(a.tools[0]!.shownWhole, true, 'the model saw it whole, not a preview');
});

test('a resumed short output kept in a file is seen whole; a long one has its preview and full size', () => {
  const items = itemsFromMessages(
    's',
    [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: '{}' },
          { id: 'c2', name: 'grep', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'a\nb\nc\n', storedAt: 'o1.txt' },
      {
        role: 'tool',
        toolCallId: 'c2',
        content: 'head\n…\nFull output (1502 lines, 9000 tokens): o2.txt - read, tail or grep it',
        storedAt: 'o2.txt',
      },
    ],
    1,
  );
  const a = items.find((i) => i.kind === 'assistant');
  assert.ok(a?.kind === 'assistant');
  assert.deepEqual(
    a.tools.map((t) => [t.outputLines, t.shownWhole ?? false]),
    [
      [3, true],
      [1502, false],
    ],
  );
});

test('a summary model’s own units are shown apart from the agent model’s, not added to them', () => {
  const model = new ChatModel(emptyChat('s', 'summary', 1000, false));
  model.event({ type: 'call-finished', turn: 1, call: 1, outputTokens: 3, record: record(1, 10), costSoFar: 10 });
  model.event({
    type: 'summary-call',
    record: { model: 'my-local-llm', inputTokens: 300, outputTokens: 50, cost: 500, unitsOf: 'my-local-llm' },
    costSoFar: 10,
  });
  const m = model.snapshot.meter;
  assert.equal(m.costUnits, 10);
  assert.deepEqual(m.summaryUnits, [{ model: 'my-local-llm', units: 500 }]);
  assert.equal(m.costUsd, undefined);
  assert.equal(costLabel(m).text, '10 units + 500 summary units of my-local-llm');
  // A resumed session shows the same, from its records.
  const resumed = meterFromLog(emptyChat('s', 'summary', 1000, false).meter, {
    calls: [record(1, 10)],
    summaryCalls: [{ model: 'my-local-llm', inputTokens: 300, outputTokens: 50, cost: 500, unitsOf: 'my-local-llm' }],
  });
  assert.equal(resumed.costUnits, 10);
  assert.deepEqual(resumed.summaryUnits, [{ model: 'my-local-llm', units: 500 }]);
});

test('after a call that failed before any answer, the next message’s answer comes below it, not in the empty turn above', () => {
  const { model } = run([
    { type: 'turn-started', turn: 1, at: 1 },
    { type: 'stopped', reason: 'error', turns: 0, message: 'The context does not fit the model’s window' },
  ]);
  model.userMessage('and now?', 2);
  model.event({ type: 'turn-started', turn: 1, at: 3 });
  model.event({ type: 'text-delta', turn: 1, text: 'The answer' });
  model.event({ type: 'done', reason: 'completed', turns: 1 });
  const shown = model.snapshot.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind));
  assert.deepEqual(shown, ['go', 'and now?', 'The answer']);
});

test('after a switch of model the live meter shows the earlier model’s units apart, as History does, while streaming too', () => {
  const before = new ChatModel(emptyChat('s', 'masking', 1000, false));
  before.event({ type: 'call-finished', turn: 1, call: 1, outputTokens: 3, record: record(1, 1000), costSoFar: 1000 });
  // The panel rebuilds its view model when the model setting changes; the session goes on with the other model.
  const after = new ChatModel(before.snapshot);
  after.event({ ...prepared(2), costSoFar: 300, otherModelUnits: [{ model: 'model-a', units: 1000 }] } as AgentEvent);
  const streaming = after.snapshot.meter;
  assert.deepEqual([streaming.costUnits, streaming.otherModelUnits], [300, [{ model: 'model-a', units: 1000 }]]);
  assert.equal(costLabel(streaming).text, '300 units + 1k units of model-a');
  const b = { ...record(2, 350), model: 'model-b' };
  after.event({
    type: 'call-finished',
    turn: 2,
    call: 2,
    outputTokens: 3,
    record: b,
    costSoFar: 350,
    otherModelUnits: [{ model: 'model-a', units: 1000 }],
  });
  const done = after.snapshot.meter;
  const resumed = meterFromLog(emptyChat('s', 'masking', 1000, false).meter, {
    calls: [{ ...record(1, 1000), model: 'model-a' }, b],
    summaryCalls: [],
  });
  assert.deepEqual([done.costUnits, done.otherModelUnits], [resumed.costUnits, resumed.otherModelUnits]);
  assert.equal(costLabel(done).text, costLabel(resumed).text);
});

test('a meter rebuilt after a switch with nothing yet of the new model keeps the earlier model’s unknown money unknown', () => {
  const money = { usdPerUnit: 1e-6, model: 'model-b', source: 'setting' as const };
  const other = [{ model: 'model-a', units: 1000 }];
  const meter = { ...emptyChat('s', 'masking', 1000, false).meter, costUnits: 0, otherModelUnits: other };
  const model = new ChatModel({ ...emptyChat('s', 'masking', 1000, false), meter }, { money });
  model.event({ ...prepared(2), costSoFar: 100, otherModelUnits: other } as AgentEvent);
  assert.equal(model.snapshot.meter.costUsd, undefined, 'the earlier model’s calls had no price');
  assert.equal(model.snapshot.meter.costUnits, 100);
});
