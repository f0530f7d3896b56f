// The context window is the limit the strategies keep the context under: whenever a strategy's smallest
// context (the person's messages and the latest turn, everything older masked or folded) fits, what it
// builds fits; when even that does not fit it says so (`overWindow`) instead of leaving it to the provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitTurns, type Message } from '../../../src/core/messages';
import { maskTurns } from '../../../src/core/strategies/mask-turns';
import { messageCounter, sumTokens } from '../../../src/core/cost/message-tokens';
import { createStrategy } from '../../../src/core/strategies/registry';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { checkpointMessage, slidingSummaryMessage } from '../../../src/core/strategies/checkpoint';
import { DEFAULT_STRATEGY_OPTIONS, usableWindow, type StrategyName } from '../../../src/core/strategies/types';
import { STRATEGIES } from '../../../src/extension/agent/chatItems';
import { words, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const count = messageCounter(tokenizer);
const SUMMARY_TOKENS = 30;

type Step = { kind: 'turn'; outputs: number[] } | { kind: 'follow-up'; words: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      // Up to three parallel calls, outputs of any size up to a stored output's preview.
      outputs: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('follow-up' as const), words: fc.integer({ min: 1, max: 40 }) }),
  },
);

function chat(steps: readonly Step[]): Message[] {
  const out: Message[] = [
    { role: 'system', content: `system ${words(8, 's')}` },
    { role: 'user', content: `task ${words(12, 't')}`, origin: 'person' },
  ];
  steps.forEach((s, k) => {
    if (s.kind === 'follow-up') {
      out.push({ role: 'assistant', content: `answer${k}`, origin: 'agent' });
      out.push({ role: 'user', content: `ask${k} ${words(s.words, 'p')}`, origin: 'person' });
      return;
    }
    const calls = s.outputs.map((_, j) => ({ id: `c${k}.${j}`, name: 'read_file', arguments: `{"path":"f${k}"}` }));
    out.push({ role: 'assistant', content: `act${k}`, origin: 'agent', toolCalls: calls });
    s.outputs.forEach((n, j) => {
      const body = `out${k}.${j}\n${words(n, 'o')}`;
      out.push({ role: 'tool', content: body, toolCallId: `c${k}.${j}`, name: 'read_file', origin: 'environment' });
    });
  });
  return out;
}

/** The smallest context `name` can build for `history`: what it may never mask or fold, and no more. */
function minimalSize(name: StrategyName, history: readonly Message[]): number {
  const split = splitTurns(history);
  const last = split.turns.length - 1;
  if (name === 'masking' || name === 'cache-aware')
    return sumTokens(maskTurns(history, split, 0, last, count).messages, count);
  if (name === 'sliding-window') return slidingMinimalSize(history);
  // summary, hybrid: the head, every person message, a checkpoint of its budget, the latest turn.
  if (last < 1) return sumTokens(history, count);
  const start = split.turns[last]!.actionIndex;
  const instructions = split.turns.slice(0, last).flatMap((t) => t.instructionIndices.map((i) => history[i]!));
  const checkpoint = SUMMARY_TOKENS + count(checkpointMessage(last, ''));
  return (
    sumTokens(history.slice(0, split.prefixEnd), count) +
    sumTokens(instructions, count) +
    checkpoint +
    sumTokens(history.slice(start), count)
  );
}

/**
 * sliding-window: the first 3 messages (with their tool results), every person message after them, a summary
 * of its budget (and its seam slack), and the latest turn (from the call whose results end the history).
 */
function slidingMinimalSize(history: readonly Message[]): number {
  let primers = Math.min(3, history.length);
  while (primers < history.length && history[primers]!.role === 'tool') primers++;
  let latest = history.length - 1;
  while (latest > primers && history[latest]!.role === 'tool') latest--;
  if (latest <= primers) return sumTokens(history, count);
  const persons = history.slice(primers, latest).filter((m) => m.origin === 'person');
  const summary = SUMMARY_TOKENS + count(slidingSummaryMessage('')) + 2;
  return (
    sumTokens(history.slice(0, primers), count) +
    sumTokens(persons, count) +
    summary +
    sumTokens(history.slice(latest), count)
  );
}

const FITTING: readonly StrategyName[] = ['masking', 'cache-aware', 'summary', 'hybrid', 'sliding-window'];

test('property: every strategy the agent offers fits the window whenever the smallest context does, and says so exactly when it is over', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(stepArb, { minLength: 1, maxLength: 70 }),
      fc.constantFrom(...STRATEGIES),
      fc.integer({ min: 400, max: 6_000 }),
      fc.integer({ min: 0, max: 200 }),
      async (steps, name, contextWindow, reservedTokens) => {
        const full = chat(steps);
        const options = { ...DEFAULT_STRATEGY_OPTIONS, contextWindow, summaryTokens: SUMMARY_TOKENS };
        const summarizer = createStandInSummarizer(tokenizer, SUMMARY_TOKENS);
        const s = createStrategy(name, { tokenizer, summarizer }, options);
        const window = usableWindow(contextWindow, { reservedTokens });
        for (let i = 3; i <= full.length; i++) {
          if (i < full.length && full[i]!.role !== 'assistant') continue;
          const history = full.slice(0, i);
          const r = await s.build(history, { reservedTokens });
          const sent = sumTokens(r.messages, count);
          const what = `${name} at message ${i}: ${sent} tokens, window ${window}`;
          // raw never makes a context smaller: it only has to say when it is over.
          if (FITTING.includes(name) && minimalSize(name, history) <= window) assert.ok(sent <= window, what);
          if (sent > window) assert.deepEqual(r.overWindow, { tokens: sent, window }, what);
          else assert.equal(r.overWindow, undefined, what);
        }
      },
    ),
    { numRuns: 100 },
  );
});

test('the audited case: 40 turns of 8 KiB previews in a 32,000 window fit with every strategy that keeps the window', async () => {
  const out = Array.from({ length: 400 }, (_, i) => `line${i} ${words(4, `x${i}_`)}`).join('\n');
  for (const name of FITTING) {
    const options = { ...DEFAULT_STRATEGY_OPTIONS, contextWindow: 32_000 };
    const summarizer = createStandInSummarizer(tokenizer, options.summaryTokens);
    const s = createStrategy(name, { tokenizer, summarizer }, options);
    const history: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task', origin: 'person' },
    ];
    let worst = 0;
    for (let t = 0; t < 40; t++) {
      const calls = [0, 1, 2].map((j) => ({ id: `c${t}.${j}`, name: 'read_file', arguments: `{"path":"f${t}.${j}"}` }));
      history.push({ role: 'assistant', content: '', origin: 'agent', toolCalls: calls });
      for (const c of calls)
        history.push({ role: 'tool', content: out, toolCallId: c.id, name: c.name, origin: 'environment' });
      const r = await s.build(history, { reservedTokens: 300 });
      worst = Math.max(worst, sumTokens(r.messages, count));
      assert.equal(r.overWindow, undefined, name);
    }
    assert.ok(worst <= 32_000 - 300, `${name}: ${worst} tokens sent`);
  }
});

test('a latest turn larger than the window is reported, not trimmed', async () => {
  for (const name of FITTING) {
    const options = { ...DEFAULT_STRATEGY_OPTIONS, contextWindow: 500, summaryTokens: SUMMARY_TOKENS };
    const s = createStrategy(name, { tokenizer, summarizer: createStandInSummarizer(tokenizer, 30) }, options);
    const history = chat([
      { kind: 'turn', outputs: [50] },
      { kind: 'turn', outputs: [50] },
      { kind: 'turn', outputs: [900] },
    ]);
    const r = await s.build(history);
    assert.ok(r.overWindow, name);
    assert.ok(r.overWindow.tokens > 500, name);
    assert.ok(
      r.messages.some((m) => m.content.includes(words(900, 'o'))),
      `${name} keeps the latest output whole`,
    );
  }
});
