import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PRICES, mergePrices, relativePrices, unitsToDollars } from '../../../src/core/cost/prices';

test('the default table has cached input cheaper than input for every model', () => {
  assert.ok(Object.keys(DEFAULT_PRICES).length >= 5);
  for (const [model, p] of Object.entries(DEFAULT_PRICES)) {
    assert.ok(p.cachedInput < p.input, model);
    assert.ok(p.output > p.input, model);
  }
});

test('user entries are merged over the defaults without changing them', () => {
  const merged = mergePrices({
    'my-model': { input: 1, cachedInput: 0.5, output: 2 },
    'gpt-4o': { input: 9, cachedInput: 1, output: 9 },
  });
  assert.deepEqual(merged['my-model'], { input: 1, cachedInput: 0.5, output: 2 });
  assert.equal(merged['gpt-4o']!.input, 9);
  assert.equal(DEFAULT_PRICES['gpt-4o']!.input, 2.5);
  assert.deepEqual(merged['claude-sonnet-4'], DEFAULT_PRICES['claude-sonnet-4']);
});

test('bad price entries are refused with an error naming the model and the field', () => {
  assert.throws(() => mergePrices({ x: null }), /Price for "x" must be an object/);
  assert.throws(() => mergePrices({ x: { input: -1, cachedInput: 0, output: 1 } }), /"x" has input = -1/);
  assert.throws(() => mergePrices({ x: { input: 1, cachedInput: '0.1', output: 1 } }), /"x" has cachedInput = "0.1"/);
  assert.throws(() => mergePrices({ x: { input: 1, cachedInput: 0.1 } }), /"x" has output = undefined/);
  assert.throws(
    () => mergePrices({ x: { input: 1, cachedInput: 0.1, output: 1, cacheWrite: Number.NaN } }),
    /cacheWrite/,
  );
});

test('relative prices feed the cost model; units convert to dollars', () => {
  const sonnet = relativePrices(DEFAULT_PRICES['claude-sonnet-4']!);
  assert.ok(Math.abs(sonnet.cachedPrice - 0.1) < 1e-12);
  assert.ok(Math.abs(sonnet.cacheWritePrice - 1.25) < 1e-12);
  assert.ok(Math.abs(sonnet.outputPrice - 5) < 1e-12);
  assert.equal(relativePrices({ input: 2, cachedInput: 0.5, output: 8 }).cacheWritePrice, 1);
  assert.throws(() => relativePrices({ input: 0, cachedInput: 0, output: 1 }), /input price above 0/);
  assert.equal(unitsToDollars(2_000_000, DEFAULT_PRICES, 'claude-sonnet-4'), 6);
  assert.throws(() => unitsToDollars(1, DEFAULT_PRICES, 'nope'), /No price for model "nope"; known: /);
});
