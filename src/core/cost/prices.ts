// Prices in US$ per million tokens, to turn cost units into money, and the relative prices every cost
// figure uses. A dated default table as the providers published it; users override or extend it.

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Cached input (a prompt-cache hit). */
  cachedInput: number;
  /** Cache write, where the provider charges a premium (Anthropic 5-minute writes); else = input. */
  cacheWrite?: number;
  output: number;
  /** Long-context pricing: a request whose prompt is over `above` tokens is billed whole at these prices. */
  longContext?: LongContextPrice;
  /** The shortest prompt prefix the provider caches for this model (absent: DEFAULT_MIN_CACHED_TOKENS). */
  minCachedTokens?: number;
}

/**
 * A long-context tier (Anthropic's Sonnet 4 / 4.5 with the 1M window): over `above` prompt tokens (cache
 * reads and writes included) every token of the request costs the tier's price, and cache reads and
 * writes cost the same multiples of the tier's input price as of the standard one.
 */
export interface LongContextPrice {
  above: number;
  input: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** When the default table was checked against the providers' pricing pages. */
export const PRICES_AS_OF = '2026-11-24';

/**
 * As published (Anthropic: platform.claude.com/docs/en/about-claude/pricing, 5-minute cache writes, the
 * shortest cached prefix from its prompt-caching page (4,096 tokens for Opus 4.5 / 4.6 and Haiku 4.5,
 * 2,048 for Haiku 3.5, 1,024 for the others), and
 * long-context pricing for Sonnet 4 / 4.5 over 200k prompt tokens; Opus 4.6 has none since its 1M window
 * became general; OpenAI: openai.com/api/pricing, standard tier). Check your provider: `contextDesk.prices`
 * overrides any entry and adds models.
 */
const SONNET_4_LONG: LongContextPrice = { above: 200_000, input: 6, output: 22.5 };

export const DEFAULT_PRICES: PriceTable = {
  // platform.claude.com/docs/en/about-claude/pricing, read 2026-11-27: Opus 4.7 and Sonnet 4.6 at their
  // family's prices, a 1M window with no long-context tier (their model pages). The shortest cached prefix
  // is published as 1,024 for Sonnet 4.6 but observed at 2,048 (anthropic-sdk-python#1194), and given as
  // 2,048 or 4,096 for Opus 4.7: the higher, so an estimate never counts a hit the provider would not give.
  'claude-opus-4-7': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25, minCachedTokens: 4096 },
  'claude-sonnet-4-6': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, minCachedTokens: 2048 },
  'claude-opus-4-5': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25, minCachedTokens: 4096 },
  'claude-opus-4-6': { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25, minCachedTokens: 4096 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, longContext: SONNET_4_LONG },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, longContext: SONNET_4_LONG },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5, minCachedTokens: 4096 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4, minCachedTokens: 2048 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  // The first snapshot kept its launch price and has no prompt caching.
  'gpt-4o-2024-05-13': { input: 5, cachedInput: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
};

function check(model: string, p: unknown): ModelPrice {
  const fail = (why: string): never => {
    throw new TypeError(`Price for "${model}" ${why}`);
  };
  if (typeof p !== 'object' || p === null) fail('must be an object { input, cachedInput, output, cacheWrite? }');
  const o = p as Record<string, unknown>;
  for (const key of ['input', 'cachedInput', 'output', 'cacheWrite'] as const) {
    const v = o[key];
    if (v === undefined && key === 'cacheWrite') continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      fail(`has ${key} = ${JSON.stringify(v)}; expected a non-negative number (US$ per million tokens)`);
  }
  if ((o.input as number) <= 0) fail('has input = 0; the input price must be above 0');
  const out: ModelPrice = {
    input: o.input as number,
    cachedInput: o.cachedInput as number,
    output: o.output as number,
  };
  if (o.cacheWrite !== undefined) out.cacheWrite = o.cacheWrite as number;
  if (o.longContext !== undefined) out.longContext = checkLongContext(o.longContext, fail);
  if (o.minCachedTokens !== undefined) {
    const n = o.minCachedTokens;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      fail(`has minCachedTokens = ${JSON.stringify(n)}; expected an integer >= 0 (tokens)`);
    out.minCachedTokens = n as number;
  }
  return out;
}

function checkLongContext(v: unknown, fail: (why: string) => never): LongContextPrice {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof o.above !== 'number' || !Number.isInteger(o.above) || o.above < 0)
    fail(`has longContext.above = ${JSON.stringify(o.above)}; expected an integer >= 0 (prompt tokens)`);
  for (const key of ['input', 'output'] as const) {
    const n = o[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
      fail(`has longContext.${key} = ${JSON.stringify(n)}; expected a number above 0 (US$ per million tokens)`);
  }
  return { above: o.above as number, input: o.input as number, output: o.output as number };
}

/** The defaults with the user's entries merged over them (a plain object, e.g. from settings). */
export function mergePrices(
  overrides: Readonly<Record<string, unknown>> = {},
  base: PriceTable = DEFAULT_PRICES,
): PriceTable {
  const merged: Record<string, ModelPrice> = { ...base };
  for (const [model, price] of Object.entries(overrides)) merged[model] = check(model, price);
  return merged;
}

/**
 * A model name in the form table keys are compared in: lower case, no vendor prefix (`openai/`,
 * `anthropic.`), no release date or `-latest`, dots as dashes (`claude-opus-4-1-20250805` and
 * `claude-opus-4.1` are the same model). Only exact matches count: `gpt-4o-mini` never takes `gpt-4o`'s
 * price, since a wrong price is worse than none.
 */
export function normalizeModelName(name: string, keepDate = false): string {
  let n = name.trim().toLowerCase();
  n = n.replace(/^(?:[a-z0-9_-]+\/)+/, ''); // openrouter-style `vendor/model`
  // Bedrock ids, cross-region inference profiles too (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`).
  // Only a Bedrock id loses its `-v1:0`: elsewhere a version is the model's own (`deepseek-v2` is not `-v3`).
  const bedrock = /^(?:(?:us|eu|apac|jp|au|global)\.)?(?:anthropic|openai)\./;
  if (bedrock.test(n)) n = n.replace(bedrock, '').replace(/-v\d+(?::\d+)?$/, '');
  n = n.replace(/@.*$/, ''); // Vertex `model@date`
  n = n.replace(/\./g, '-');
  if (!keepDate) n = n.replace(/-(?:latest|\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  return n;
}

export interface MatchedPrice {
  /** The table's key that matched. */
  key: string;
  price: ModelPrice;
  /** `setting` when the user's `contextDesk.prices` has the entry, else `default`. */
  source: 'default' | 'setting';
}

/** The price of `model`, matched by normalized name; undefined when the table does not know it. */
export function findPrice(
  model: string,
  table: PriceTable,
  userKeys: ReadonlySet<string> = new Set(),
): MatchedPrice | undefined {
  // The user's own entries first, then the defaults.
  const keys = Object.keys(table).sort((a, b) => Number(userKeys.has(b)) - Number(userKeys.has(a)));
  const key = matchModelKey(model, keys);
  if (key === undefined) return undefined;
  return { key, price: table[key]!, source: userKeys.has(key) ? 'setting' : 'default' };
}

/**
 * The key among `keys` (tried in order) that names `model`: an exact key wins over a normalized one, and a
 * snapshot's own entry (its date kept) over the model's; an entry for a dated snapshot matches only it.
 */
export function matchModelKey(model: string, keys: readonly string[]): string | undefined {
  if (model.trim() === '') return undefined;
  const wanted = normalizeModelName(model);
  const dated = normalizeModelName(model, true);
  return (
    keys.find((k) => k === model) ??
    keys.find((k) => normalizeModelName(k, true) === dated) ??
    keys.find((k) => normalizeModelName(k) === wanted && normalizeModelName(k, true) === normalizeModelName(k))
  );
}

/** Relative prices for the cost model: cached and write prices as fractions of uncached input. */
export function relativePrices(p: ModelPrice): { cachedPrice: number; cacheWritePrice: number; outputPrice: number } {
  if (p.input <= 0) throw new RangeError('Relative prices need an input price above 0');
  return {
    cachedPrice: p.cachedInput / p.input,
    cacheWritePrice: (p.cacheWrite ?? p.input) / p.input,
    outputPrice: p.output / p.input,
  };
}

/** Cost units (uncached-input-token equivalents) to US$. */
export function unitsToDollars(units: number, table: PriceTable, model: string): number {
  const p = findPrice(model, table);
  if (!p) throw new RangeError(`No price for model "${model}"; known: ${Object.keys(table).join(', ')}`);
  return (units * p.price.input) / 1_000_000;
}
