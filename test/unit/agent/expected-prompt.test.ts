// The prompt size a call asks the budget for: our count, scaled by how far it fell short of the provider's
// figure on the last reported call of the same model (expected-prompt.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedPrompt, MAX_PROMPT_SCALE } from '../../../src/core/agent/expected-prompt';
import type { CallRecord } from '../../../src/core/agent/session-state';

function call(model: string, tokensSent: number, inputTokens?: number): CallRecord {
  return {
    turn: 1,
    call: 1,
    at: 0,
    model,
    tokensSent,
    ...(inputTokens !== undefined ? { usage: { inputTokens } } : {}),
  } as CallRecord;
}

test("our count is scaled by the last reported call's shortfall", () => {
  assert.equal(expectedPrompt(2000, [call('claude-sonnet-4-5', 1000, 1250)], 'claude-sonnet-4-5'), 2500);
  // The latest reported call of the model counts; a call without a report is passed over.
  const calls = [call('m', 1000, 1500), call('m', 1000, 1100), call('m', 1000)];
  assert.equal(expectedPrompt(1000, calls, 'm'), 1100);
});

test('no scale without a report of the same model, and never below our count or above the maximum', () => {
  assert.equal(expectedPrompt(1000, [], 'm'), 1000);
  assert.equal(expectedPrompt(1000, [call('gpt-4.1', 1000, 1300)], 'claude-sonnet-4-5'), 1000, 'another model');
  assert.equal(expectedPrompt(1000, [call('m', 1000, 800)], 'm'), 1000, 'a provider counting less');
  assert.equal(expectedPrompt(1000, [call('m', 100, 5000)], 'm'), 1000 * MAX_PROMPT_SCALE, 'a hidden proxy prompt');
  assert.equal(expectedPrompt(1000, [call('m', 0, 50)], 'm'), 1000, 'an empty prompt says nothing');
});
