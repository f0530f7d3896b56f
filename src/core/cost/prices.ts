// A small price table (US$ per million tokens) to turn cost units into money. As published by the
// providers when this was written: check your provider, and extend or override it with your own.

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Cached input (a prompt-cache hit). */
  cachedInput: number;
  /** Cache write, where the provider charges a premium (Anthropic 5-minute writes); else = input. */
  cacheWrite?: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** As published, check your provider. */
export const DEFAULT_PRICES: PriceTable = {
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-opus-4.1': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-haiku-4.5': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
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
  return o as unknown as ModelPrice;
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
  const p = table[model];
  if (!p) throw new RangeError(`No price for model "${model}"; known: ${Object.keys(table).join(', ')}`);
  return (units * p.input) / 1_000_000;
}
