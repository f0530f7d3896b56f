// An output whose full text could not be stored (`unstored`: disk full, a refused folder) has no file a
// placeholder could name: the masking strategies keep it verbatim (nothing lost, the cached prefix holds)
// and mask it only when the window leaves no other way, their record then saying it has no file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitTurns, type Message } from '../../../src/core/messages';
import { maskTurns } from '../../../src/core/strategies/mask-turns';
import { messageCounter, sumTokens } from '../../../src/core/cost/message-tokens';
import { createStrategy } from '../../../src/core/strategies/registry';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { DEFAULT_STRATEGY_OPTIONS, type StrategyName } from '../../../src/core/strategies/types';
import { words, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const count = messageCounter(tokenizer);
const MASKING: readonly StrategyName[] = ['masking', 'cache-aware', 'hybrid'];

interface Output {
  size: number;
  stored: boolean;
}

const turnsArb = fc.array(
  fc.array(fc.record({ size: fc.integer({ min: 5, max: 300 }), stored: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  { minLength: 1, maxLength: 40 },
);

function chat(turns: readonly (readonly Output[])[]): Message[] {
  const out: Message[] = [
    { role: 'system', content: `system ${words(8, 's')}` },
    { role: 'user', content: `task ${words(12, 't')}`, origin: 'person' },
  ];
  turns.forEach((outputs, k) => {
    const calls = outputs.map((_, j) => ({ id: `c${k}.${j}`, name: 'read_file', arguments: `{"path":"f${k}"}` }));
    out.push({ role: 'assistant', content: `act${k}`, origin: 'agent', toolCalls: calls });
    outputs.forEach((o, j) => {
      const m: Message = {
        role: 'tool',
        content: `out${k}.${j}\n${words(o.size, 'o')}`,
        toolCallId: `c${k}.${j}`,
        name: 'read_file',
        origin: 'environment',
      };
      if (o.stored) m.storedAt = `.context-desk/tool-outputs/o${k}.${j}.txt`;
      else m.unstored = true;
      out.push(m);
    });
  });
  return out;
}

const strategy = (name: StrategyName, contextWindow: number, window: number) =>
  createStrategy(
    name,
    { tokenizer, summarizer: createStandInSummarizer(tokenizer, 30) },
    { ...DEFAULT_STRATEGY_OPTIONS, contextWindow, window, summaryTokens: 30, cachedPrice: 0.1, cacheWritePrice: 1 },
  );

test('property: with room in the window, no strategy masks an output that has no file, and every placeholder names one', async () => {
  await fc.assert(
    fc.asyncProperty(
      turnsArb,
      fc.constantFrom(...MASKING),
      fc.integer({ min: 1, max: 4 }),
      async (turns, name, window) => {
        const full = chat(turns);
        const s = strategy(name, 10_000_000, window);
        let maskedStored = 0;
        // Call by call as the agent does: an unstored output stays as it was in every request.
        for (let i = 3; i <= full.length; i++) {
          if (i < full.length && full[i]!.role !== 'assistant') continue;
          const history = full.slice(0, i);
          const r = await s.build(history);
          assert.equal(r.overWindow, undefined);
          for (const rec of r.masked) {
            assert.ok(rec.storedAt, `${name} masked message ${rec.index} with no file`);
            maskedStored++;
          }
          for (const m of history.filter((h) => h.unstored))
            assert.ok(r.messages.includes(m), `${name}: ${m.toolCallId} not sent verbatim at message ${i}`);
        }
        // Not vacuous: masking masks stored outputs past its window.
        const storedOld = turns.slice(0, Math.max(0, turns.length - window - 1)).some((o) => o.some((x) => x.stored));
        if (name === 'masking' && storedOld) assert.ok(maskedStored > 0, 'masking masked no stored output');
      },
    ),
    { numRuns: 150 },
  );
});

test('property: an output with no file is masked only when the window leaves no other way, and its record then names no file', async () => {
  await fc.assert(
    fc.asyncProperty(
      turnsArb,
      fc.constantFrom('masking', 'cache-aware'),
      fc.double({ min: 0, max: 1, noNaN: true }),
      async (turns, name, at) => {
        const history = chat(turns);
        const split = splitTurns(history);
        const last = split.turns.length - 1;
        // The smallest contexts: everything before the latest turn masked, with and without unstored outputs.
        const smallest = sumTokens(maskTurns(history, split, 0, last, count, true).messages, count);
        const storedOnly = sumTokens(maskTurns(history, split, 0, last, count).messages, count);
        const window = Math.round(smallest + at * (sumTokens(history, count) - smallest));
        const r = await strategy(name, window, 10).build(history);
        const what = `${name}: window ${window}, smallest ${smallest}, stored only ${storedOnly}`;
        assert.equal(r.overWindow, undefined, what);
        assert.ok(sumTokens(r.messages, count) <= window, what);
        for (const rec of r.masked) {
          assert.equal(
            rec.storedAt,
            history[rec.index]!.storedAt,
            'a record names the file, or none when there is none',
          );
          if (history[rec.index]!.unstored) assert.ok(storedOnly > window, `${what}: masked ${rec.index} with no file`);
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('hybrid: over the window, later stored outputs are masked before an older one that has no file', async () => {
  const history = chat([[{ size: 300, stored: false }], [{ size: 300, stored: true }], [{ size: 10, stored: true }]]);
  const r = await strategy('hybrid', sumTokens(history, count) - 200, 10).build(history);
  assert.equal(r.overWindow, undefined);
  assert.deepEqual(
    r.masked.map((m) => [history[m.index]!.toolCallId, m.storedAt]),
    [['c1.0', '.context-desk/tool-outputs/o1.0.txt']],
  );
  const forced = await strategy('hybrid', sumTokens(history, count) - 500, 10).build(history);
  assert.equal(forced.overWindow, undefined);
  assert.ok(forced.masked.some((m) => history[m.index]!.unstored && m.storedAt === undefined));
});
