import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PRICES,
  PRICES_AS_OF,
  findPrice,
  mergePrices,
  relativePrices,
  unitsToDollars,
} from '../../../src/core/cost/prices';
import {
  DEFAULT_OUTPUT_PRICE,
  defaultCacheWritePrice,
  inputUnits,
  resolvePricing,
} from '../../../src/core/cost/pricing';

test('the default table has cached input cheaper than input for every model that caches', () => {
  assert.ok(Object.keys(DEFAULT_PRICES).length >= 5);
  const uncached = new Set(['gpt-4o-2024-05-13']);
  for (const [model, p] of Object.entries(DEFAULT_PRICES)) {
    if (uncached.has(model)) assert.equal(p.cachedInput, p.input, model);
    else assert.ok(p.cachedInput < p.input, model);
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

test('prices match by model name without vendor prefix, release date or dot/dash, never by prefix', () => {
  const t = DEFAULT_PRICES;
  const key = (m: string) => findPrice(m, t)?.key;
  assert.equal(key('claude-opus-4-1-20250805'), 'claude-opus-4-1');
  assert.equal(key('claude-opus-4.1'), 'claude-opus-4-1');
  assert.equal(key('anthropic/claude-sonnet-4-5'), 'claude-sonnet-4-5');
  assert.equal(key('anthropic.claude-haiku-4-5-20251001-v1:0'), 'claude-haiku-4-5');
  // Bedrock's cross-region inference profiles put the region first; the model is the same.
  assert.equal(key('us.anthropic.claude-sonnet-4-5-20250929-v1:0'), 'claude-sonnet-4-5');
  assert.equal(key('global.anthropic.claude-opus-4-5-20251101-v1:0'), 'claude-opus-4-5');
  assert.equal(key('eu.anthropic.claude-haiku-4-5-20251001-v1:0'), 'claude-haiku-4-5');
  assert.equal(key('claude-sonnet-4@20250514'), 'claude-sonnet-4');
  assert.equal(key('openai/gpt-4o-2024-08-06'), 'gpt-4o');
  assert.equal(key('GPT-4.1-mini'), 'gpt-4.1-mini');
  assert.equal(key('gpt-4o-mini'), 'gpt-4o-mini', 'the mini model has its own price');
  // A snapshot with a price of its own takes it, and only that snapshot does.
  assert.equal(key('gpt-4o-2024-05-13'), 'gpt-4o-2024-05-13');
  assert.equal(key('openai/gpt-4o-2024-05-13'), 'gpt-4o-2024-05-13');
  assert.equal(key('gpt-4o-2024-11-20'), 'gpt-4o');
  assert.equal(key('gpt-4o'), 'gpt-4o');
  assert.equal(findPrice('gpt-4o-2024-08-06', { 'gpt-4o-2024-05-13': t['gpt-4o-2024-05-13']! }), undefined);
  // Unknown models get no price at all, not a neighbour's: a wrong number is worse than units.
  assert.equal(key('gpt-4o-audio-preview'), undefined);
  assert.equal(key('llama3.1:8b'), undefined);
  assert.equal(key('scripted'), undefined);
  assert.equal(key(''), undefined);
});

test("the user's entry wins over the default table, and says where it came from", () => {
  const user = { 'gpt-4o': { input: 5, cachedInput: 2.5, output: 20 } };
  const m = findPrice('gpt-4o-2024-08-06', mergePrices(user), new Set(Object.keys(user)));
  assert.equal(m?.source, 'setting');
  assert.equal(m?.price.input, 5);
  assert.equal(findPrice('gpt-4o', DEFAULT_PRICES)?.source, 'default');
});

test('pricing: a known model gives money and its relative prices; an unknown one units and the settings', () => {
  const known = resolvePricing({
    model: 'claude-sonnet-4-5-20250929',
    provider: 'anthropic',
    cachedPrice: 0.5,
    cacheWritePrice: null,
  });
  assert.ok(Math.abs(known.cachedPrice - 0.1) < 1e-12, 'from the table, not the setting');
  assert.ok(Math.abs(known.cacheWritePrice - 1.25) < 1e-12);
  assert.ok(Math.abs(known.outputPrice - 5) < 1e-12);
  assert.deepEqual(known.money, {
    usdPerUnit: 3e-6,
    model: 'claude-sonnet-4-5',
    source: 'default',
    asOf: PRICES_AS_OF,
  });

  const anthropic = resolvePricing({
    model: 'claude-custom',
    provider: 'anthropic',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  assert.equal(anthropic.cacheWritePrice, 1.25, "Anthropic's 5-minute writes by default");
  assert.equal(anthropic.money, undefined);
  const local = resolvePricing({
    model: 'qwen3',
    provider: 'openai-compatible',
    cachedPrice: 0.25,
    cacheWritePrice: null,
  });
  assert.deepEqual(local, { cachedPrice: 0.25, cacheWritePrice: 1, outputPrice: DEFAULT_OUTPUT_PRICE });
  const copilot = resolvePricing({ model: 'gpt-4o', provider: 'vscode-lm', cachedPrice: 0.1, cacheWritePrice: null });
  assert.equal(copilot.money, undefined, "VS Code's models are not priced at a provider's list price");
  const set = resolvePricing({
    model: 'gpt-4o',
    provider: 'openai-compatible',
    cachedPrice: 0.1,
    cacheWritePrice: 1.5,
  });
  assert.equal(set.cacheWritePrice, 1.5, 'the setting wins over the table');
  // Claude through an OpenAI-compatible endpoint: no breakpoints are sent, so its uncached input is not
  // written (1x); a write the endpoint reports is billed at the model's price.
  const proxied = resolvePricing({
    model: 'anthropic/claude-sonnet-4.5',
    provider: 'openai-compatible',
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  assert.equal(proxied.cacheWritePrice, 1);
  assert.ok(Math.abs(proxied.reportedWritePrice! - 1.25) < 1e-12);
  assert.equal(known.reportedWritePrice, undefined, 'the anthropic provider writes what is uncached');
  assert.throws(
    () =>
      resolvePricing({
        model: 'x',
        provider: 'p',
        cachedPrice: 0.1,
        cacheWritePrice: null,
        userPrices: { x: { input: 0, cachedInput: 0, output: 1 } },
      }),
    /"x" has input = 0/,
  );
});

test('input cost with the cache-write price: our estimate and both providers’ usage shapes', () => {
  const p = { cachedPrice: 0.1, cacheWritePrice: 1.25 };
  // Our estimate (and OpenAI's usage): everything not cached is written to the cache.
  assert.equal(inputUnits({ input: 1000, cached: 600 }, p), 600 * 0.1 + 400 * 1.25);
  // Anthropic reports writes apart: the rest of the uncached input is billed at 1.
  assert.equal(inputUnits({ input: 1000, cached: 600, cacheWrite: 300 }, p), 600 * 0.1 + 300 * 1.25 + 100);
  // Writes reported where the estimate expects none are billed at their own price.
  assert.equal(
    inputUnits(
      { input: 1000, cached: 600, cacheWrite: 300 },
      { cachedPrice: 0.1, cacheWritePrice: 1, reportedWritePrice: 1.25 },
    ),
    600 * 0.1 + 300 * 1.25 + 100,
  );
  assert.equal(
    inputUnits({ input: 1000, cached: 600 }, { cachedPrice: 0.1, cacheWritePrice: 1, reportedWritePrice: 1.25 }),
    600 * 0.1 + 400,
  );
  // Figures that do not add up are clamped, never negative.
  assert.equal(inputUnits({ input: 100, cached: 500, cacheWrite: 50 }, p), 100 * 0.1);
  assert.equal(defaultCacheWritePrice('anthropic'), 1.25);
  assert.equal(defaultCacheWritePrice('openai-compatible'), 1);
});

test('Claude Opus 4.7 and Sonnet 4.6 have their published prices, with no long-context tier', () => {
  const opus = findPrice('claude-opus-4-7', DEFAULT_PRICES);
  assert.deepEqual(opus?.price, { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25, minCachedTokens: 4096 });
  assert.equal(findPrice('us.anthropic.claude-opus-4-7-v1:0', DEFAULT_PRICES)?.key, 'claude-opus-4-7');
  const sonnet = findPrice('anthropic/claude-sonnet-4.6', DEFAULT_PRICES);
  assert.equal(sonnet?.key, 'claude-sonnet-4-6');
  assert.equal(sonnet?.price.input, 3);
  assert.equal(sonnet?.price.cacheWrite, 3.75);
  // A 1M window at one price: a 300k-token prompt is not billed at Sonnet 4.5's long-context tier.
  assert.equal(sonnet?.price.longContext, undefined);
  assert.equal(unitsToDollars(1_000_000, DEFAULT_PRICES, 'claude-sonnet-4-6'), 3);
  // A model the table does not know has no price (cost stays in units), never a neighbour's.
  assert.equal(findPrice('claude-sonnet-4-7', DEFAULT_PRICES), undefined);
});
