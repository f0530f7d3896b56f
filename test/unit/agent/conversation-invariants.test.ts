// Whatever the model and the person do (tool calls valid or not, answers cut by Stop or by a provider error,
// empty answers, retries, a resume from the history file between messages), every request the provider
// gets pairs each tool call with exactly one result right after its action, and holds every message the
// person sent, in order, none masked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { ProviderError } from '../../../src/core/agent/errors';
import { AgentSession } from '../../../src/core/agent/session';
import { sessionStateFromHistory } from '../../../src/core/agent/resume';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import type { HistoryLine } from '../../../src/core/store/history';
import type { StrategyName } from '../../../src/core/strategies/types';
import { createTokenizer } from '../../../src/core/tokens';
import { echoTool } from './helpers';

const SYSTEM = 'You are a coding agent.';

type Step =
  | { kind: 'text'; text: string }
  | { kind: 'tools'; calls: { name: string; args: string }[]; text: string }
  | { kind: 'mid-error'; text: string }
  | { kind: 'unreachable' }
  | { kind: 'stop'; text: string; call: boolean }
  | { kind: 'empty' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom('Done.', 'All set.') }),
  fc.record({
    kind: fc.constant('tools' as const),
    text: fc.constantFrom('', 'Reading.'),
    calls: fc.array(
      fc.record({
        name: fc.constantFrom('read_file', 'read_file', 'no_such_tool'),
        args: fc.constantFrom('{"path":"a.ts"}', '{"path":"b.ts"}', '{"path":', '[]', ''),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({ kind: fc.constant('mid-error' as const), text: fc.constantFrom('', 'I will') }),
  fc.record({ kind: fc.constant('unreachable' as const) }),
  fc.record({ kind: fc.constant('stop' as const), text: fc.constantFrom('', 'Let me'), call: fc.boolean() }),
  fc.record({ kind: fc.constant('empty' as const) }),
);

/** Plays `steps` in order (then answers plainly); a `stop` step presses Stop mid-answer. */
class ScriptedProvider implements ChatProvider {
  readonly id = 'scripted';
  readonly requests: Message[][] = [];
  private n = 0;
  private calls = 0;
  stop: (() => void) | undefined;

  constructor(private readonly steps: Step[]) {}

  async *chat(r: ChatRequest): AsyncIterable<ChatStreamEvent> {
    this.requests.push(r.messages.slice());
    await Promise.resolve();
    const s = this.steps[this.n++] ?? { kind: 'text', text: 'Done.' };
    if (s.kind === 'unreachable') throw new ProviderError({ kind: 'network', message: 'ECONNREFUSED' });
    if (s.kind === 'empty') return yield { type: 'finish', reason: 'stop' };
    if (s.kind === 'text') {
      yield { type: 'text-delta', text: s.text };
      return yield { type: 'finish', reason: 'stop' };
    }
    if (s.text) yield { type: 'text-delta', text: s.text };
    if (s.kind === 'mid-error') {
      if (!s.text) yield { type: 'usage', usage: { inputTokens: 10 } };
      throw new ProviderError({ kind: 'server', message: 'stream broke' });
    }
    if (s.kind === 'stop') {
      if (s.call) yield this.call('read_file', '{"path":"c.ts"}');
      this.stop?.();
      throw new ProviderError({ kind: 'aborted', message: 'aborted' });
    }
    for (const c of s.calls) yield this.call(c.name, c.args);
    yield { type: 'finish', reason: 'tool_calls' };
  }

  private call(name: string, args: string): ChatStreamEvent {
    return { type: 'tool-call', call: { id: `call_${this.calls++}`, name, arguments: args } };
  }
}

/** Each action's tool calls answered once, right after it; no result without its call. */
function assertPaired(messages: readonly Message[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') assert.fail(`a result without its call at ${i}: ${JSON.stringify(messages)}`);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const ids = m.toolCalls.map((c) => c.id);
    const results = messages.slice(i + 1, i + 1 + ids.length);
    assert.deepEqual(
      results.map((r) => (r.role === 'tool' ? r.toolCallId : `(${r.role})`)),
      ids,
      `the calls at ${i} are answered right after it: ${JSON.stringify(messages)}`,
    );
    i += ids.length;
  }
}

test('every request pairs calls with results and holds every message the person sent, in order', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { maxLength: 12 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      async (steps, resumes) => {
        const provider = new ScriptedProvider(steps);
        const records: HistoryLine[] = [
          { v: 1, session: 's', index: 0, at: '', message: { role: 'system', content: SYSTEM } },
        ];
        const options = {
          provider,
          model: 'scripted',
          tools: new ToolRegistry([echoTool]),
          tokenizer: createTokenizer('chars4'),
          systemPrompt: SYSTEM,
          sleep: () => Promise.resolve(),
          strategy: 'masking' as const,
          onMessage: (message: Message, index: number) =>
            records.push({ v: 1, session: 's', index, at: '', message: structuredClone(message) }),
        };
        let agent = new AgentSession(options);
        const sent: string[] = [];
        for (const [k, resume] of resumes.entries()) {
          if (resume && k > 0) {
            const restore = sessionStateFromHistory(records, {
              id: 's',
              provider: 'scripted',
              model: 'scripted',
              strategy: 'masking',
              now: 0,
            });
            agent = new AgentSession({ ...options, restore });
          }
          const text = `instruction ${k}`;
          sent.push(text);
          const stop = new AbortController();
          provider.stop = () => stop.abort();
          await agent.send(text, stop.signal);
        }
        assert.ok(provider.requests.length > 0);
        for (const request of provider.requests) {
          assertPaired(request);
          const asked = request.filter((m) => m.role === 'user' && /^instruction \d+$/.test(m.content));
          assert.deepEqual(
            asked.map((m) => m.content),
            sent.slice(0, asked.length),
            "the person's messages, in order",
          );
        }
        // The last request holds every message sent up to it.
        const last = provider.requests.at(-1)!;
        assert.equal(
          last.filter((m) => m.role === 'user' && /^instruction/.test(m.content)).at(-1)?.content,
          sent.at(-1),
        );
      },
    ),
    { numRuns: 150 },
  );
});

/** What a provider is sent of a message (the session's own fields, origin and storedAt, are not). */
const wire = (ms: readonly Message[]): unknown[] =>
  ms.map((m) => ({ role: m.role, content: m.content, calls: m.toolCalls, id: m.toolCallId }));

/** A session that writes its history as the panel does (messages and strategy states), resumable from it. */
function recorded(steps: Step[], strategy: StrategyName) {
  const provider = new ScriptedProvider(steps);
  // The history file starts with the system prompt, as the panel writes it (SessionHistory).
  const records: HistoryLine[] = [
    { v: 1, session: 's', index: 0, at: '', message: { role: 'system', content: SYSTEM } },
  ];
  const options = {
    provider,
    model: 'scripted',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('chars4'),
    systemPrompt: SYSTEM,
    sleep: () => Promise.resolve(),
    strategy,
    strategyOptions: { window: 2, contextWindow: 6000, summaryTokens: 300 },
    onMessage: (message: Message, index: number) =>
      records.push({ v: 1, session: 's', index, at: '', message: structuredClone(message) }),
    onStrategyState: (state: object) =>
      records.push({ v: 1, session: 's', kind: 'strategy', at: '', state: structuredClone(state) as never }),
  };
  const resumed = (): AgentSession =>
    new AgentSession({
      ...options,
      restore: sessionStateFromHistory(records, { id: 's', provider: 'scripted', model: 'scripted', strategy, now: 0 }),
    });
  return { provider, records, options, resumed };
}

for (const strategy of ['masking', 'cache-aware', 'summary', 'hybrid', 'sliding-window'] as const)
  test(`${strategy}: a session resumed from its history file before every message sends what it would have sent`, async () => {
    let shapedRuns = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), fc.integer({ min: 2, max: 5 }), async (steps, messages) => {
        const going = recorded(steps, strategy);
        const resuming = recorded(steps, strategy);
        const kept = new AgentSession(going.options);
        for (let k = 0; k < messages; k++) {
          const text = `instruction ${k}`;
          for (const [run, agent] of [
            [going, kept],
            [resuming, k > 0 ? resuming.resumed() : new AgentSession(resuming.options)],
          ] as const) {
            const stop = new AbortController();
            run.provider.stop = () => stop.abort();
            await agent.send(text, stop.signal);
          }
        }
        assert.deepEqual(resuming.provider.requests.map(wire), going.provider.requests.map(wire));
        // The strategy changed the context (a placeholder, a summary) somewhere: not only plain history.
        const own = new Set(wire(kept.messages).map((m) => JSON.stringify(m)));
        if (going.provider.requests.some((r) => wire(r).some((m) => !own.has(JSON.stringify(m))))) shapedRuns++;
      }),
      { numRuns: 50 },
    );
    assert.ok(shapedRuns > 0, 'the strategy shaped the context in some runs');
  });
