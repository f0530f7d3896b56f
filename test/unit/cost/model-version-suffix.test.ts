// A model's version suffix is part of its name: `deepseek-v2` is not `deepseek-v3`, and must never take
// its price. Only a Bedrock id's own version (`anthropic.claude-…-v1:0`) is dropped to find the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPrice, matchModelKey, mergePrices, normalizeModelName } from '../../../src/core/cost/prices';

test('a version suffix is kept: another version of a model never takes its price', () => {
  const table = mergePrices({ 'deepseek-v3': { input: 0.27, cachedInput: 0.07, output: 1.1 } });
  const user = new Set(['deepseek-v3']);
  assert.equal(findPrice('deepseek-v2', table, user), undefined, 'no price, rather than v3’s');
  assert.equal(
    findPrice('mistral-v1', mergePrices({ 'mistral-v7': { input: 1, cachedInput: 1, output: 1 } })),
    undefined,
  );
  assert.equal(findPrice('deepseek-v3', table, user)?.key, 'deepseek-v3');
  assert.equal(findPrice('openrouter/deepseek/deepseek-v3', table, user)?.key, 'deepseek-v3');
  assert.notEqual(normalizeModelName('deepseek-v2'), normalizeModelName('deepseek-v3'));
});

test('Bedrock ids still find their model without the id’s own version', () => {
  const keys = Object.keys(mergePrices());
  assert.equal(matchModelKey('anthropic.claude-sonnet-4-5-20250929-v1:0', keys), 'claude-sonnet-4-5');
  assert.equal(matchModelKey('us.anthropic.claude-haiku-4-5-20251001-v1:0', keys), 'claude-haiku-4-5');
  assert.equal(matchModelKey('anthropic.claude-opus-4-1-20250805-v1', keys), 'claude-opus-4-1');
});
