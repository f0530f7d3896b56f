// The prompt size a call asks the budget for: our count, scaled by how far it fell short of the provider's
// figure on the last reported call of the same model (expected-prompt.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLAUDE_FIRST_SCALE,
  CLAUDE_NEW_TOKENIZER_FIRST_SCALE,
  CLAUDE_TOOL_PROMPT,
  expectedPrompt,
  MAX_PROMPT_SCALE,
  OTHER_FIRST_SCALE,
} from '../../../src/core/agent/expected-prompt';
import type { CallRecord } from '../../../src/core/agent/session-state';

function call(model: string, tokensSent: number, inputTokens?: number, tools?: number): CallRecord {
  return {
    turn: 1,
    call: 1,
    at: 0,
    model,
    tokensSent,
    ...(tools !== undefined ? { parts: { system: 0, tools, messages: tokensSent - tools, priming: 0 } } : {}),
    ...(inputTokens !== undefined ? { usage: { inputTokens } } : {}),
  } as CallRecord;
}

/** Our count of a prompt without tool definitions; `exact` for an OpenAI model on its own encoding. */
const counted = (tokens: number, exact = true, tools = 0) => ({ tokens, tools, exact });

test("our count is scaled by the last reported call's shortfall", () => {
  assert.equal(expectedPrompt(counted(2000), [call('claude-sonnet-4-5', 1000, 1250)], 'claude-sonnet-4-5'), 2500);
  // The latest reported call of the model counts; a call without a report is passed over.
  const calls = [call('m', 1000, 1500), call('m', 1000, 1100), call('m', 1000)];
  assert.equal(expectedPrompt(counted(1000), calls, 'm'), 1100);
});

test('no scale without a report of the same model, and never below our count or above the maximum', () => {
  assert.equal(expectedPrompt(counted(1000), [], 'm'), 1000);
  assert.equal(
    expectedPrompt(counted(1000), [call('gpt-4.1', 1000, 1300)], 'claude-sonnet-4-5'),
    1000,
    'another model',
  );
  assert.equal(expectedPrompt(counted(1000), [call('m', 1000, 800)], 'm'), 1000, 'a provider counting less');
  assert.equal(
    expectedPrompt(counted(1000), [call('m', 100, 5000)], 'm'),
    1000 * MAX_PROMPT_SCALE,
    'a hidden proxy prompt',
  );
  assert.equal(expectedPrompt(counted(1000), [call('m', 0, 50)], 'm'), 1000, 'an empty prompt says nothing');
});

test("a first call is scaled by a prior for its family unless our tokenizer is the model's own", () => {
  assert.equal(expectedPrompt(counted(1000), [], 'gpt-4.1'), 1000, 'exact: no prior');
  assert.equal(expectedPrompt(counted(1000, false), [], 'claude-sonnet-4-5'), 1000 * CLAUDE_FIRST_SCALE);
  assert.equal(expectedPrompt(counted(1000, false), [], 'gemini-2.5-pro'), 1000 * OTHER_FIRST_SCALE);
  // A report of another model says nothing about this one's tokenizer.
  const other = [call('gpt-4.1', 1000, 1000)];
  assert.equal(expectedPrompt(counted(1000, false), other, 'claude-opus-4.5'), 1000 * CLAUDE_FIRST_SCALE);
});

test("a first call to Claude takes its tokenizer's prior: Opus 4.7 and later count up to 1.35x the earlier", () => {
  const first = (model: string): number => expectedPrompt(counted(1000, false), [], model) / 1000;
  for (const m of ['claude-3-5-sonnet-20241022', 'claude-sonnet-4', 'claude-opus-4-20250514', 'claude-opus-4.6'])
    assert.equal(first(m), CLAUDE_FIRST_SCALE, m);
  for (const m of ['claude-haiku-4-5', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'])
    assert.equal(first(m), CLAUDE_FIRST_SCALE, m);
  // The newer tokenizer, and a Claude name we cannot place: the larger prior.
  for (const m of ['claude-opus-4-7', 'claude-opus-4.8', 'claude-sonnet-5', 'claude-fable-5', 'claude-sonnet-4-10'])
    assert.equal(first(m), CLAUDE_NEW_TOKENIZER_FIRST_SCALE, m);
  // Measured: o200k counts Python code 1.3x short for Claude 3.5; the newer tokenizer adds up to 1.35x.
  assert.ok(CLAUDE_FIRST_SCALE >= 1.3 && CLAUDE_NEW_TOKENIZER_FIRST_SCALE >= 1.3 * 1.35);
  // Bedrock's cross-region ids are Claude: the tool prompt is added.
  const tools = counted(1000, false, 300);
  assert.equal(
    expectedPrompt(tools, [], 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
    1000 * CLAUDE_FIRST_SCALE + CLAUDE_TOOL_PROMPT,
  );
});

test("Claude's tool prompt is added to a request with tools, and taken out of a report before scaling", () => {
  const tools = counted(1000, false, 300);
  assert.equal(expectedPrompt(tools, [], 'anthropic/claude-haiku-4.5'), 1000 * CLAUDE_FIRST_SCALE + CLAUDE_TOOL_PROMPT);
  assert.equal(expectedPrompt(tools, [], 'gemini-2.5-pro'), 1000 * OTHER_FIRST_SCALE, 'Claude only');
  // 10,000 counted, billed 1.2x + the tool prompt; a shorter prompt later (masked) still gets all of it.
  const calls = [call('claude-sonnet-4-5', 10_000, 12_000 + CLAUDE_TOOL_PROMPT, 300)];
  assert.equal(expectedPrompt({ tokens: 2000, tools: 300, exact: false }, calls, 'claude-sonnet-4-5'), 2400 + 346);
});
