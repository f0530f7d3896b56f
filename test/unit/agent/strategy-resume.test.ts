// A continued session (a resume from History, or any setting changed while idle: the panel rebuilds the
// session from `state()`) goes on with its strategy's own state: no second summary of the same turns, the
// same checkpoint, the same masked prefix. A saved state that does not fit its conversation is ignored
// with a warning, never sent and never a crash.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { sessionStateFromHistory } from '../../../src/core/agent/resume';
import { AgentSession, type AgentOptions } from '../../../src/core/agent/session';
import { parseSessionState, type SessionState } from '../../../src/core/agent/session-state';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { Message } from '../../../src/core/messages';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, loadSession } from '../../../src/core/store/history';
import { parseStrategyState, MAX_SUMMARY_CHARS } from '../../../src/core/strategies/strategy-state';
import { createTokenizer } from '../../../src/core/tokens';
import { HistorySink, SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { silentLogger } from '../../../src/core/ports';
import { tempDir } from '../store/helpers';
import { echoTool } from './helpers';

/** Reads a new file on each call until told to answer; keeps every request it got. */
function scriptedModel(): ChatProvider & { requests: Message[][]; reads: number } {
  let n = 0;
  const p = {
    id: 'fake',
    requests: [] as Message[][],
    reads: 0,
    async *chat(req: ChatRequest): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      p.requests.push(structuredClone(req.messages) as Message[]);
      const k = n++;
      if (p.reads > 0) {
        p.reads--;
        yield { type: 'tool-call', call: { id: `c${k}`, name: 'read_file', arguments: `{"path":"f${k}.ts"}` } };
        yield { type: 'finish', reason: 'tool_calls' };
      } else {
        yield { type: 'text-delta', text: 'Done.' };
        yield { type: 'finish', reason: 'stop' };
      }
    },
  };
  return p;
}

/** A summary model that numbers its summaries. */
function summaryModel(): ChatProvider & { calls: number } {
  const p = {
    id: 'summarizer',
    calls: 0,
    async *chat(): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      p.calls++;
      yield { type: 'text-delta', text: `USER_CONTEXT: read files\nCOMPLETED: summary #${p.calls}\nPENDING: none` };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  return p;
}

function setup(options: Partial<AgentOptions> = {}) {
  const model = scriptedModel();
  const summarizer = summaryModel();
  const opts: AgentOptions = {
    provider: model,
    model: 'fake',
    summaryModel: { provider: summarizer, model: 'summarizer' },
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    sleep: () => Promise.resolve(),
    ...options,
  };
  return { model, summarizer, opts };
}

const checkpointOf = (messages: readonly Message[]): string | undefined =>
  messages.find((m) => m.content.startsWith('Checkpoint for the last'))?.content;

/** A saved state as a file or the panel keeps it: plain JSON. */
const saved = (s: SessionState): SessionState => JSON.parse(JSON.stringify(s)) as SessionState;

test('summary: a session continued from its state makes no new summary call and sends the same checkpoint', async () => {
  const { model, summarizer, opts } = setup({ strategy: 'summary' });
  model.reads = 32; // 31 turns unsummarized fold the oldest 21 into a checkpoint
  const first = new AgentSession(opts);
  assert.equal(await first.send('Read the files one by one.'), 'completed');
  assert.equal(summarizer.calls, 1);
  const last = model.requests.at(-1)!;
  assert.match(checkpointOf(last) ?? '', /summary #1/);

  const next = new AgentSession({ ...opts, restore: saved(first.state()) });
  model.reads = 0;
  assert.equal(await next.send('Anything left?'), 'completed');
  assert.equal(summarizer.calls, 1, 'no new summary call');
  assert.equal(next.state().summaryCalls.length, 1);
  const resumed = model.requests.at(-1)!;
  assert.equal(checkpointOf(resumed), checkpointOf(last));
  // The request goes on from the last one: the same prefix, so the provider's cache still holds.
  assert.deepEqual(resumed.slice(0, last.length), last);
});

test('sliding-window: a session continued from its state keeps its summary (no new summary call)', async () => {
  const { model, summarizer, opts } = setup({ strategy: 'sliding-window', strategyOptions: { contextWindow: 6000 } });
  model.reads = 10;
  const first = new AgentSession(opts);
  assert.equal(await first.send('Read the files one by one.'), 'completed');
  const before = summarizer.calls;
  assert.ok(before >= 1, 'the window made it summarize');
  const last = model.requests.at(-1)!;
  const next = new AgentSession({ ...opts, restore: saved(first.state()) });
  assert.equal(await next.send('Anything left?'), 'completed');
  assert.equal(summarizer.calls, before, 'no new summary call');
  assert.deepEqual(model.requests.at(-1)!.slice(0, last.length), last);
});

test('cache-aware: a session continued from its state keeps its mask boundary (the prefix stays as sent)', async () => {
  const { model, opts } = setup({ strategy: 'cache-aware', strategyOptions: { window: 3 } });
  model.reads = 8;
  const first = new AgentSession(opts);
  assert.equal(await first.send('Read the files one by one.'), 'completed');
  const last = model.requests.at(-1)!;
  const state = saved(first.state());
  assert.equal(state.strategyState?.strategy, 'cache-aware');

  const next = new AgentSession({ ...opts, restore: state });
  assert.equal(await next.send('Anything left?'), 'completed');
  const resumed = model.requests.at(-1)!;
  assert.deepEqual(resumed.slice(0, last.length), last, 'nothing sent before is rewritten');
});

test('the same strategy with new options mid-run keeps its checkpoint (no second summary)', async () => {
  const { model, summarizer, opts } = setup({ strategy: 'summary' });
  model.reads = 34;
  const agent = new AgentSession(opts);
  let changed = false;
  agent.on((e) => {
    // Once the checkpoint is made: a new context window rebuilds the strategy.
    if (e.type === 'summary-call' && !changed) {
      changed = true;
      agent.reconfigure({ strategyOptions: { contextWindow: 150_000 } });
    }
  });
  assert.equal(await agent.send('Read the files one by one.'), 'completed');
  assert.ok(changed);
  assert.equal(summarizer.calls, 1);
  assert.match(checkpointOf(model.requests.at(-1)!) ?? '', /summary #1/);
});

test('another strategy starts afresh; a state saved before strategy states existed loads as before', async () => {
  const { model, opts } = setup({ strategy: 'summary' });
  model.reads = 32;
  const first = new AgentSession(opts);
  await first.send('Read the files one by one.');
  const state = saved(first.state());
  assert.equal(state.strategyState?.strategy, 'summary');
  assert.equal(new AgentSession({ ...opts, strategy: 'masking', restore: state }).state().strategyState, undefined);
  const old = saved(first.state());
  delete old.strategyState;
  const fresh = new AgentSession({ ...opts, restore: old });
  assert.equal(fresh.state().strategyState, undefined);
  assert.equal(fresh.state().messages.length, state.messages.length);
});

test('resume from History: the history file keeps the checkpoint, and the resumed session goes on from it', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const { model, summarizer, opts } = setup({ strategy: 'summary' });
  const sink = new HistorySink();
  const first = new AgentSession({ ...opts, ...sinkOptions(sink) });
  sink.session = first;
  sink.history = SessionHistory.open(await HistoryWriter.open(store, 'chat-1'), 0, [], silentLogger);
  model.reads = 32;
  await first.send('Read the files one by one.');
  await sink.history.sync(first.messages);
  await sink.history.close();
  const last = model.requests.at(-1)!;

  const { records } = await loadSession(store, 'chat-1');
  const state = sessionStateFromHistory(records, {
    id: 'chat-1',
    provider: 'fake',
    model: 'fake',
    strategy: 'summary',
    now: 0,
  });
  assert.equal(state.strategyState?.strategy, 'summary');
  const next = new AgentSession({ ...opts, restore: state });
  model.reads = 0;
  await next.send('Anything left?');
  assert.equal(summarizer.calls, 1, 'no new summary call');
  assert.equal(checkpointOf(model.requests.at(-1)!), checkpointOf(last));
});

test('the history file keeps the checkpoint sanitized, like every message', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const writer = await HistoryWriter.open(store, 'chat-2');
  const key = 'sk-ant-api03-' + 'a'.repeat(90);
  await writer.appendState({ strategy: 'hybrid', summarizedTurns: 3, checkpoint: `the key is ${key}` });
  await writer.close();
  const { records } = await loadSession(store, 'chat-2');
  const line = JSON.stringify(records);
  assert.ok(!line.includes(key), 'the secret is not written');
  assert.match(line, /"kind":"strategy"/);
});

const conversation = (turns: number): Message[] => [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'task', origin: 'person' },
  ...Array.from({ length: turns }, (_, i): Message[] => [
    {
      role: 'assistant',
      content: '',
      origin: 'agent',
      toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{}' }],
    },
    { role: 'tool', content: `out ${i}`, toolCallId: `c${i}`, name: 'read_file', origin: 'environment' },
  ]).flat(),
];

function stateWith(strategyState: unknown, summaryCalls = 1): Record<string, unknown> {
  return {
    version: 1,
    id: 's',
    createdAt: 0,
    provider: 'p',
    model: 'm',
    strategy: 'hybrid',
    messages: conversation(5),
    turns: 5,
    calls: [],
    summaryCalls: Array.from({ length: summaryCalls }, () => ({ inputTokens: 1, outputTokens: 1, cost: 1 })),
    cost: 0,
    status: 'idle',
    strategyState,
  };
}

test('a saved strategy state that does not fit its conversation is ignored with a reason', () => {
  const bad: [unknown, RegExp, number?][] = [
    [{ strategy: 'hybrid', summarizedTurns: 3, checkpoint: 'a checkpoint' }, /no summary call on record/, 0],
    [
      { strategy: 'hybrid', summarizedTurns: 5, checkpoint: 'a checkpoint' },
      /summarizedTurns 5 is not between 1 and 4/,
    ],
    [{ strategy: 'hybrid', summarizedTurns: 0, checkpoint: 'a checkpoint' }, /summarizedTurns 0/],
    [{ strategy: 'hybrid', summarizedTurns: 2.5, checkpoint: 'x' }, /summarizedTurns 2.5/],
    [{ strategy: 'summary', summarizedTurns: 2, checkpoint: 42 }, /checkpoint is not a non-empty string/],
    [{ strategy: 'summary', summarizedTurns: 2, checkpoint: 'x'.repeat(MAX_SUMMARY_CHARS + 1) }, /characters/],
    [{ strategy: 'sliding-window', foldedUpTo: 5, summary: 's' }, /splits a tool call from its result/],
    [{ strategy: 'cache-aware', boundary: 9, regret: 0, previousLength: 3 }, /boundary 9/],
    [{ strategy: 'cache-aware', boundary: 1, regret: -1, previousLength: 3 }, /regret -1/],
    [{ strategy: 'cache-aware', boundary: 1, regret: 0, previousLength: 99 }, /previousLength 99/],
    [{ strategy: 'masking' }, /strategy "masking" keeps no state/],
    ['text', /not an object/],
  ];
  for (const [value, why, summaryCalls] of bad) {
    const told: string[] = [];
    const state = parseSessionState(stateWith(value, summaryCalls), (w) => told.push(w));
    assert.equal(state.strategyState, undefined, JSON.stringify(value).slice(0, 80));
    assert.equal(told.length, 1);
    assert.match(told[0]!, why);
    assert.match(told[0]!, /strategy starts afresh/);
  }
  // A good one comes back clean (no field the strategy does not know).
  const good = parseSessionState(
    stateWith({ strategy: 'hybrid', summarizedTurns: 3, checkpoint: 'c', extra: '<instructions>' }),
  );
  assert.deepEqual(good.strategyState, { strategy: 'hybrid', summarizedTurns: 3, checkpoint: 'c' });
});

test('the session says on its first run that a saved strategy state was ignored', async () => {
  const { opts } = setup({ strategy: 'hybrid' });
  const warned: string[] = [];
  const restore = stateWith({ strategy: 'hybrid', summarizedTurns: 9, checkpoint: 'c' }) as unknown as SessionState;
  const agent = new AgentSession({
    ...opts,
    restore,
    logger: { ...silentLogger, warn: (m: string) => warned.push(m) },
  });
  assert.match(warned.join('\n'), /saved strategy state was ignored/);
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  await agent.send('go on');
  const warnings = events.filter((e) => e.type === 'warning');
  assert.equal(warnings.length, 1);
  assert.match((warnings[0] as { message: string }).message, /summarizedTurns 9/);
});

test('property: any saved strategy state is either accepted whole or ignored with a reason, never thrown', () => {
  const value = fc.oneof(
    fc.anything(),
    fc.record(
      {
        strategy: fc.constantFrom('summary', 'hybrid', 'sliding-window', 'cache-aware', 'raw', 'x'),
        summarizedTurns: fc.oneof(fc.integer({ min: -2, max: 8 }), fc.double(), fc.string()),
        checkpoint: fc.oneof(fc.string(), fc.integer()),
        foldedUpTo: fc.integer({ min: -2, max: 14 }),
        summary: fc.oneof(fc.string(), fc.constant(null)),
        boundary: fc.integer({ min: -2, max: 8 }),
        regret: fc.oneof(fc.double(), fc.integer()),
        previousLength: fc.integer({ min: -2, max: 14 }),
      },
      { requiredKeys: ['strategy'] },
    ),
  );
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 2 }), (v, summaryCalls) => {
      const told: string[] = [];
      const state = parseSessionState(stateWith(v, summaryCalls), (w) => told.push(w));
      // (none saved, as before strategy states existed: nothing to say)
      if (state.strategyState === undefined) return told.length === (v === undefined ? 0 : 1);
      // What is kept passes the same check again, unchanged.
      const context = { messages: state.messages, summaryCalls };
      assert.deepEqual(parseStrategyState(state.strategyState, context), state.strategyState);
      return told.length === 0;
    }),
  );
});

function sinkOptions(sink: HistorySink): Partial<AgentOptions> {
  return {
    onCall: sink.onCall,
    onMessage: sink.onMessage,
    onSummaryCall: sink.onSummaryCall,
    onStrategyState: sink.onStrategyState,
  };
}
