// The prices one session bills with: relative prices (cost units) for the strategies and the meter alike,
// and US$ per unit when the model's price is known. One rule for input billed from our own count and from
// what a provider reported, so a recorded call can be billed again from its figures alone.
import { cacheIncrementOf } from './cache-increment';
import { longContextOf, type LongContextPrices } from './long-context';
import { findPrice, mergePrices, PRICES_AS_OF, relativePrices, type PriceTable } from './prices';

export interface RelativePrices {
  /** Cached input relative to uncached input. */
  cachedPrice: number;
  /**
   * Cache write relative to uncached input: what every uncached token costs when the provider does not say
   * how many it wrote (our estimate bills them all so). 1 where no premium is charged or nothing is written.
   */
  cacheWritePrice: number;
  /**
   * Tokens the provider reports as written, when that differs from `cacheWritePrice`: Claude behind an
   * OpenAI-compatible proxy writes nothing unless the proxy adds breakpoints itself, and then says so.
   */
  reportedWritePrice?: number;
  /** Output relative to uncached input. */
  outputPrice: number;
  /** Uncached input relative to the unit: 1 unless a long-context tier prices it (see `pricesAt`). */
  inputPrice?: number;
}

/** Where money comes from: the price entry used (per million tokens). */
export interface MoneyPrice {
  /** US$ per cost unit (= the model's uncached input price per token). */
  usdPerUnit: number;
  /** The price table's entry that matched the model name. */
  model: string;
  source: 'default' | 'setting';
  /** Date of the default table (absent for the user's own entries). */
  asOf?: string;
}

export interface Pricing extends RelativePrices {
  /** Absent when the model's price is not known: costs are shown in labelled units. */
  money?: MoneyPrice;
  /** The model's long-context tier, when its price has one (see `pricesAt`). */
  longContext?: LongContextPrices;
  /** The shortest prefix the provider caches for the model, when its price entry says. */
  minCachedTokens?: number;
  /** The step the provider caches a prefix in (OpenAI's models: 128 tokens), by the model's name. */
  cacheIncrement?: number;
}

/** Relative output price assumed when the model's price is unknown. */
export const DEFAULT_OUTPUT_PRICE = 4;

export interface PricingInput {
  model: string;
  /**
   * `anthropic` gets the model's cache-write price (1.25 by default, 5-minute writes): that provider marks
   * the prompt for caching, so its uncached part is written. Other providers send no breakpoints: their
   * uncached input is billed at 1 and only writes they report at the model's write price.
   */
  provider: string;
  /** `contextDesk.prices`: per model { input, cachedInput, cacheWrite?, output } in US$ per million tokens. */
  userPrices?: Readonly<Record<string, unknown>>;
  /** Used when the model's price is unknown (`contextDesk.cachedInputPrice`). */
  cachedPrice: number;
  /** `contextDesk.cacheWritePrice`; null: the model's price, else 1.25 for Anthropic and 1.0 otherwise. */
  cacheWritePrice: number | null;
}

/** The default cache-write price by provider: Anthropic's 5-minute writes cost 1.25x input. */
export function defaultCacheWritePrice(provider: string): number {
  return provider === 'anthropic' ? 1.25 : 1.0;
}

/** Prices for a session; throws a TypeError naming the entry when `userPrices` holds a bad one. */
export function resolvePricing(i: PricingInput): Pricing {
  const user = i.userPrices ?? {};
  // VS Code's models (Copilot's) are paid by subscription, not at a provider's list price: only a price
  // the user set gives money there.
  const table: PriceTable = mergePrices(user, i.provider === 'vscode-lm' ? {} : undefined);
  const match = findPrice(i.model, table, new Set(Object.keys(user)));
  const increment = cacheIncrementOf(i.model);
  const step = increment !== undefined ? { cacheIncrement: increment } : {};
  if (!match) {
    return {
      cachedPrice: i.cachedPrice,
      cacheWritePrice: i.cacheWritePrice ?? defaultCacheWritePrice(i.provider),
      outputPrice: DEFAULT_OUTPUT_PRICE,
      ...step,
    };
  }
  const rel = relativePrices(match.price);
  const writes = i.provider === 'anthropic';
  const cacheWritePrice = i.cacheWritePrice ?? (writes ? rel.cacheWritePrice : 1);
  return {
    cachedPrice: rel.cachedPrice,
    cacheWritePrice,
    ...(rel.cacheWritePrice !== cacheWritePrice && i.cacheWritePrice === null
      ? { reportedWritePrice: rel.cacheWritePrice }
      : {}),
    outputPrice: rel.outputPrice,
    ...(match.price.longContext ? { longContext: longContextOf(match.price) } : {}),
    ...(match.price.minCachedTokens !== undefined ? { minCachedTokens: match.price.minCachedTokens } : {}),
    ...step,
    money: {
      usdPerUnit: match.price.input / 1_000_000,
      model: match.key,
      source: match.source,
      ...(match.source === 'default' ? { asOf: PRICES_AS_OF } : {}),
    },
  };
}

/** Input tokens of one call as billed: the whole prompt, the part read from the cache, the part written. */
export interface BilledInput {
  input: number;
  cached: number;
  /**
   * Reported by Anthropic (and proxies that pass it on); absent: every uncached token is billed at
   * `cacheWritePrice` (1 where the provider writes nothing).
   */
  cacheWrite?: number;
}

/**
 * Input cost in units: cached at `cachedPrice`, reported writes at `reportedWritePrice` (else
 * `cacheWritePrice`), the rest at `inputPrice` (1); without a write count the uncached part at `cacheWritePrice`.
 */
export function inputUnits(
  b: BilledInput,
  p: Pick<RelativePrices, 'cachedPrice' | 'cacheWritePrice' | 'reportedWritePrice' | 'inputPrice'>,
): number {
  const input = Math.max(0, b.input);
  const cached = Math.min(input, Math.max(0, b.cached));
  if (b.cacheWrite === undefined) return cached * p.cachedPrice + (input - cached) * p.cacheWritePrice;
  const written = Math.min(input - cached, Math.max(0, b.cacheWrite));
  return (
    cached * p.cachedPrice +
    written * (p.reportedWritePrice ?? p.cacheWritePrice) +
    (input - cached - written) * (p.inputPrice ?? 1)
  );
}
