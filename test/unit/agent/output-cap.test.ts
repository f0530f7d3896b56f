// The output limit a call under a hard budget is sent with (output-cap.ts), and the models' own limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { modelOutputLimit } from '../../../src/core/agent/model-output-limits';
import { ANY_MODEL_OUTPUT, MIN_ANSWER_TOKENS, outputCap } from '../../../src/core/agent/output-cap';

const room = (tokens: number) => ({ level: 'session' as const, tokens, mode: 'hard' as const });

test("a model's own output limit is matched by name, vendor prefix and snapshot", () => {
  assert.equal(modelOutputLimit('gpt-4.1'), 32_768);
  assert.equal(modelOutputLimit('openai/gpt-4.1-mini'), 32_768);
  assert.equal(modelOutputLimit('gpt-4o-2024-08-06'), 16_384);
  assert.equal(modelOutputLimit('gpt-4o-2024-05-13'), 4096, 'the first snapshot writes less');
  assert.equal(modelOutputLimit('anthropic/claude-sonnet-4.5'), 64_000);
  assert.equal(modelOutputLimit('qwen2.5-coder:32b'), undefined);
  assert.equal(modelOutputLimit(''), undefined);
});

test('with nothing configured, a hard budget with much room left still sends a limit', () => {
  assert.deepEqual(outputCap(room(50_000), undefined), {
    type: 'send',
    maxOutputTokens: ANY_MODEL_OUTPUT,
    byBudget: false,
  });
  assert.deepEqual(outputCap(room(50_000), undefined, 32_768), {
    type: 'send',
    maxOutputTokens: 32_768,
    byBudget: false,
  });
  assert.deepEqual(outputCap(room(20_000), undefined, 32_768), {
    type: 'send',
    maxOutputTokens: 20_000,
    byBudget: true,
  });
  assert.deepEqual(outputCap(undefined, undefined, 32_768), { type: 'send', byBudget: false }, 'no budget, no limit');
});

test('property: under a hard budget the limit sent is never above the room, the model limit or the configured one', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
      fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
      (tokens, configured, model) => {
        const cap = outputCap(room(tokens), configured, model);
        if (tokens < MIN_ANSWER_TOKENS) return assert.equal(cap.type, 'too-small');
        assert.ok(cap.type === 'send' && cap.maxOutputTokens !== undefined, 'a limit is always sent');
        assert.ok(cap.maxOutputTokens <= tokens);
        assert.ok(cap.maxOutputTokens <= (configured ?? model ?? ANY_MODEL_OUTPUT));
        if (cap.byBudget) assert.equal(cap.maxOutputTokens, tokens, 'a budget cut is at the room');
      },
    ),
  );
});
