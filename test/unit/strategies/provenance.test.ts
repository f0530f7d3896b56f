// A person's messages are never masked, summarised away or dropped; the inference rule for messages
// without an origin; property tests over chat-shaped sessions with follow-ups at random positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitTurns, type Message } from '../../../src/core/messages';
import { inferOrigins, withOrigins } from '../../../src/core/provenance';
import { createStrategy } from '../../../src/core/strategies/registry';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { DEFAULT_STRATEGY_OPTIONS, STRATEGY_NAMES, type StrategyName } from '../../../src/core/strategies/types';
import { words, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const size = (ms: readonly Message[]): number => ms.reduce((n, m) => n + tokenizer.countMessage(m), 0);

const lines = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i} ${words(6, tag)}`).join('\n');

test('inference: with tool messages a user message is a person’s; without, later user messages are observations', () => {
  const chat: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'ls', arguments: '{}' }] },
    { role: 'tool', content: 'out', toolCallId: 'c' },
    { role: 'user', content: 'follow-up' },
  ];
  assert.deepEqual(inferOrigins(chat), [undefined, 'person', 'agent', 'environment', 'person']);
  const observationsAsUser: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
    { role: 'assistant', content: 'THOUGHT ```ls```' },
    { role: 'user', content: '<output>a b</output>' },
  ];
  assert.deepEqual(inferOrigins(observationsAsUser), [undefined, 'person', 'agent', 'environment']);
  // A stated origin wins; a known convention overrides the guess.
  assert.deepEqual(
    inferOrigins([...observationsAsUser, { role: 'user', content: 'x', origin: 'person' }]).at(-1),
    'person',
  );
  assert.deepEqual(inferOrigins(observationsAsUser, 'chat').at(-1), 'person');
  assert.deepEqual(inferOrigins(chat, 'user-observations').at(-1), 'environment');
  // withOrigins fills only what is missing and keeps the other objects.
  const filled = withOrigins(chat);
  assert.equal(filled[0], chat[0]);
  assert.deepEqual(
    filled.map((m) => m.origin),
    [undefined, 'person', 'agent', 'environment', 'person'],
  );
});

test('splitTurns: a follow-up is an instruction of its turn, never an observation', () => {
  const history: Message[] = [
    { role: 'user', content: 'task', origin: 'person' },
    { role: 'assistant', content: 'done', origin: 'agent' },
    { role: 'user', content: 'and now this', origin: 'person' },
    { role: 'user', content: 'raw output', origin: 'environment' },
  ];
  const split = splitTurns(history);
  assert.deepEqual(split.turns[0]!.instructionIndices, [2]);
  assert.deepEqual(split.turns[0]!.observationIndices, [3]);
});

test('the reported case: window 1, a 7-line second request is never replaced by a placeholder', async () => {
  const second = lines(7, 'second');
  const history: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing test in src/a.ts' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] },
    { role: 'tool', content: lines(30, 'obs'), toolCallId: 'c1' },
    { role: 'assistant', content: 'Fixed.' },
    { role: 'user', content: second },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'read_file', arguments: '{"path":"b"}' }] },
    { role: 'tool', content: lines(30, 'obs2'), toolCallId: 'c2' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'read_file', arguments: '{"path":"c"}' }] },
    { role: 'tool', content: lines(30, 'obs3'), toolCallId: 'c3' },
  ];
  for (const name of ['masking', 'cache-aware'] as const) {
    const s = createStrategy(
      name,
      { tokenizer, summarizer: createStandInSummarizer(tokenizer, 20) },
      { ...DEFAULT_STRATEGY_OPTIONS, window: 1, cachedPrice: 1 },
    );
    const r = await s.build(history);
    assert.equal(r.messages[5]!.content, second, name);
    assert.ok(r.masked.length > 0, `${name} still masks the old tool output`);
    assert.ok(r.masked.every((m) => history[m.index]!.role === 'tool'));
  }
});

/** One step of a chat: a tool-calling turn, or a person's follow-up (after a reply without tool calls, or not). */
type Step =
  | { kind: 'turn'; action: number; observations: number[]; lines: number }
  | { kind: 'follow-up'; words: number; lines: number; afterAnswer: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      action: fc.integer({ min: 1, max: 10 }),
      observations: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 2 }),
      lines: fc.integer({ min: 1, max: 5 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('follow-up' as const),
      words: fc.integer({ min: 1, max: 12 }),
      lines: fc.integer({ min: 1, max: 8 }),
      afterAnswer: fc.boolean(),
    }),
  },
);

/** system, the task, then the steps; `explicit` false leaves origins to inference (chat convention). */
function chat(steps: readonly Step[], explicit: boolean): Message[] {
  const o = <T extends Message>(m: T, origin: Message['origin']): T => (explicit ? { ...m, origin } : m);
  const out: Message[] = [
    { role: 'system', content: `system ${words(8, 's')}` },
    o({ role: 'user', content: `task ${words(12, 't')}` }, 'person'),
  ];
  steps.forEach((s, k) => {
    if (s.kind === 'follow-up') {
      if (s.afterAnswer) out.push(o({ role: 'assistant', content: `answer${k} ${words(3, 'r')}` }, 'agent'));
      const body = Array.from({ length: s.lines }, (_, l) => `ask${k}.${l} ${words(s.words, 'p')}`).join('\n');
      out.push(o({ role: 'user', content: body }, 'person'));
      return;
    }
    const calls = s.observations.map((_, j) => ({ id: `c${k}.${j}`, name: 'bash', arguments: `{"cmd":"ls ${k}"}` }));
    out.push(o({ role: 'assistant', content: `act${k} ${words(s.action, 'a')}`, toolCalls: calls }, 'agent'));
    s.observations.forEach((n, j) => {
      const body = Array.from({ length: s.lines }, (_, l) => `obs${k}.${j}.${l} ${words(n, 'o')}`).join('\n');
      out.push(o({ role: 'tool', content: body, toolCallId: `c${k}.${j}`, name: 'bash' }, 'environment'));
    });
  });
  return out;
}

/**
 * Every person message of `history` is in `sent`, verbatim and in order, except the ones a summary says it
 * stands for; those are never the task or the latest instruction, and only the window forced them out.
 */
function checkPersons(
  history: readonly Message[],
  sent: readonly Message[],
  contextWindow: number,
  what: string,
): void {
  const origins = inferOrigins(history);
  const persons = history.filter((_, i) => origins[i] === 'person');
  const missing: Message[] = [];
  let from = 0;
  for (const p of persons) {
    const at = sent.findIndex((m, k) => k >= from && m.role === 'user' && m.content === p.content);
    if (at < 0) missing.push(p);
    else from = at + 1;
  }
  const note =
    /it also stands for (\d+) earlier user instructions?, summarised because the context window was full/.exec(
      sent.map((m) => m.content).join('\n'),
    );
  assert.equal(missing.length, note ? Number(note[1]) : 0, `${what}: person messages missing without a note`);
  if (missing.length === 0) return;
  assert.ok(!missing.includes(persons[0]!), `${what}: the task was dropped`);
  assert.ok(!missing.includes(persons.at(-1)!), `${what}: the latest instruction was dropped`);
  assert.ok(size(sent) + size(missing) > contextWindow, `${what}: dropped although they fit the window`);
}

/** A follow-up with masked or folded messages on both sides of it. */
function followUpInsideCompressedPart(history: readonly Message[], sent: readonly Message[]): boolean {
  const present = new Set(sent);
  const gone = history.flatMap((m, i) => (present.has(m) ? [] : [i]));
  const origins = inferOrigins(history);
  const task = origins.indexOf('person');
  return origins.some((o, f) => o === 'person' && f !== task && gone[0]! < f && gone.at(-1)! > f);
}

/** Strategies that folded or masked around a follow-up, so the property is known to bite. */
const exercised = new Set<string>();

async function everyCall(name: StrategyName, full: readonly Message[], window: number, contextWindow: number) {
  const options = { ...DEFAULT_STRATEGY_OPTIONS, window, contextWindow, summaryTokens: 30 };
  const s = createStrategy(name, { tokenizer, summarizer: createStandInSummarizer(tokenizer, 30) }, options);
  const points = full.flatMap((m, i) => (m.role === 'assistant' ? [i] : [])).concat(full.length);
  for (const i of points) {
    const history = full.slice(0, i);
    const r = await s.build(history);
    checkPersons(history, r.messages, contextWindow, `${name} at message ${i}`);
    if (followUpInsideCompressedPart(history, r.messages)) exercised.add(name);
    if (name === 'retry-filter')
      checkPersons(history, (await s.build(history, { retry: true, note: 'n' })).messages, contextWindow, 'retry');
  }
}

test('property: every strategy, every window, every call carries all person messages verbatim and in order', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(stepArb, { minLength: 1, maxLength: 90, size: 'max' }),
      fc.boolean(),
      fc.constantFrom(...STRATEGY_NAMES),
      fc.integer({ min: 1, max: 12 }),
      fc.oneof(fc.integer({ min: 1_500, max: 6_000 }), fc.integer({ min: 6_000, max: 60_000 })),
      async (steps, explicit, name, window, contextWindow) => {
        await everyCall(name, chat(steps, explicit), window, contextWindow);
      },
    ),
    { numRuns: 120 },
  );
  for (const name of ['masking', 'cache-aware', 'summary', 'hybrid', 'sliding-window'])
    assert.ok(exercised.has(name), `${name} never masked or summarised a session with follow-ups`);
});

test('a full window forces older instructions into the summary, which says so; task and latest stay', async () => {
  const steps: Step[] = [];
  for (let k = 0; k < 40; k++) {
    steps.push({ kind: 'turn', action: 3, observations: [30], lines: 2 });
    if (k % 4 === 0) steps.push({ kind: 'follow-up', words: 60, lines: 3, afterAnswer: true });
  }
  const full = chat(steps, true);
  for (const name of ['summary', 'sliding-window'] as const) {
    const contextWindow = name === 'summary' ? 1_200 : 2_000;
    const options = { ...DEFAULT_STRATEGY_OPTIONS, contextWindow, summaryTokens: 30 };
    const s = createStrategy(name, { tokenizer, summarizer: createStandInSummarizer(tokenizer, 30) }, options);
    const r = await s.build(full);
    const text = r.messages.map((m) => m.content).join('\n');
    assert.match(
      text,
      /it also stands for \d+ earlier user instructions?, summarised because the context window/,
      name,
    );
    checkPersons(full, r.messages, contextWindow, name);
  }
});
