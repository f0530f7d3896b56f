import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitTurns } from '../../../src/core/messages';
import { createMaskingStrategy } from '../../../src/core/strategies/masking';
import { publishedMaskedTurns } from '../../../src/core/strategies/mask-turns';
import { parseMaskPlaceholder } from '../../../src/core/strategies/placeholder';
import { conversation, turnsArb, wordTokenizer } from './helpers';

test('observations older than the last M turns become placeholders; newer stay verbatim', async () => {
  const history = conversation(Array.from({ length: 12 }, () => ({ action: 2, observations: [30], lines: 3 })));
  const r = await createMaskingStrategy({ tokenizer: wordTokenizer() }, { window: 10, polling: 1 }).build(history);
  const split = splitTurns(history);
  const [o0, o1, o2] = [0, 1, 2].map((t) => split.turns[t]!.observationIndices[0]!);
  assert.equal(r.messages[o0!]!.content, 'Old environment output: (3 lines omitted)');
  assert.equal(r.messages[o1!]!.content, 'Old environment output: (3 lines omitted)');
  assert.equal(r.messages[o2!], history[o2!]);
  assert.deepEqual(
    r.masked.map((m) => m.index),
    [o0, o1],
  );
});

test('the polling boundary matches LastNObservations (task counted as observation 0)', () => {
  assert.equal(publishedMaskedTurns(10, 10, 1), 0);
  assert.equal(publishedMaskedTurns(11, 10, 1), 1);
  assert.equal(publishedMaskedTurns(30, 10, 1), 20);
  // polling 5: observations = turns + 1, floored to a multiple of 5, minus M + 1
  assert.equal(publishedMaskedTurns(14, 10, 5), 4);
  assert.equal(publishedMaskedTurns(18, 10, 5), 4);
  assert.equal(publishedMaskedTurns(19, 10, 5), 9);
});

test('property: masking never touches actions, the task or the last M turns; never sends more than raw', async () => {
  const tokenizer = wordTokenizer();
  await fc.assert(
    fc.asyncProperty(
      turnsArb(0, 40),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 8 }),
      async (turns, window, polling) => {
        const history = conversation(turns);
        const r = await createMaskingStrategy({ tokenizer: wordTokenizer() }, { window, polling }).build(history);
        const split = splitTurns(history);
        assert.equal(r.messages.length, history.length);
        for (let i = 0; i < split.prefixEnd; i++) assert.equal(r.messages[i], history[i]);
        split.turns.forEach((t, k) => {
          assert.equal(r.messages[t.actionIndex], history[t.actionIndex]);
          for (const i of t.observationIndices) {
            if (k >= split.turns.length - window) assert.equal(r.messages[i], history[i]);
            else if (r.messages[i] !== history[i]) assert.ok(parseMaskPlaceholder(r.messages[i]!.content));
          }
        });
        if (polling === 1) {
          const older = split.turns
            .slice(0, Math.max(0, split.turns.length - window))
            .flatMap((t) => t.observationIndices);
          // A placeholder is 9 tokens with this tokenizer; shorter observations stay verbatim.
          const longer = older.filter((i) => tokenizer.countMessage(history[i]!) > 9);
          assert.deepEqual(
            r.masked.map((m) => m.index),
            longer,
          );
        }
        r.messages.forEach((m, i) => assert.ok(tokenizer.countMessage(m) <= tokenizer.countMessage(history[i]!)));
      },
    ),
  );
});

test('an observation shorter than its placeholder stays verbatim (masking it would add tokens)', async () => {
  const history = conversation(Array.from({ length: 12 }, (_, k) => ({ action: 2, observations: [k === 0 ? 1 : 30] })));
  const r = await createMaskingStrategy({ tokenizer: wordTokenizer() }, { window: 10, polling: 1 }).build(history);
  const split = splitTurns(history);
  const tiny = split.turns[0]!.observationIndices[0]!;
  const big = split.turns[1]!.observationIndices[0]!;
  assert.equal(r.messages[tiny], history[tiny]);
  assert.equal(r.messages[big]!.content, 'Old environment output: (1 lines omitted)');
  assert.deepEqual(
    r.masked.map((m) => m.index),
    [big],
  );
});
