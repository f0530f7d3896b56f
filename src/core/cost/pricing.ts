// The prices one session bills with: relative prices (cost units) for the strategies and the meter alike,
// and US$ per unit when the model's price is known. One rule for input billed from our own count and from
// what a provider reported, so a recorded call can be billed again from its figures alone.
import { findPrice, mergePrices, PRICES_AS_OF, relativePrices, type PriceTable } from './prices';

export interface RelativePrices {
  /** Cached input relative to uncached input. */
  cachedPrice: number;
  /** Cache write relative to uncached input (1 when the provider charges no premium). */
  cacheWritePrice: number;
  /** Output relative to uncached input. */
  outputPrice: number;
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
}

/** Relative output price assumed when the model's price is unknown. */
export const DEFAULT_OUTPUT_PRICE = 4;

export interface PricingInput {
  model: string;
  /** `anthropic` gets the 1.25 cache-write default (5-minute writes). */
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
  if (!match) {
    return {
      cachedPrice: i.cachedPrice,
      cacheWritePrice: i.cacheWritePrice ?? defaultCacheWritePrice(i.provider),
      outputPrice: DEFAULT_OUTPUT_PRICE,
    };
  }
  const rel = relativePrices(match.price);
  return {
    cachedPrice: rel.cachedPrice,
    cacheWritePrice: i.cacheWritePrice ?? rel.cacheWritePrice,
    outputPrice: rel.outputPrice,
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
  /** Reported separately by Anthropic; absent: every uncached token is billed as a cache write. */
  cacheWrite?: number;
}

/** Input cost in units: cached at `cachedPrice`, writes at `cacheWritePrice`, the rest at 1. */
export function inputUnits(b: BilledInput, p: Pick<RelativePrices, 'cachedPrice' | 'cacheWritePrice'>): number {
  const input = Math.max(0, b.input);
  const cached = Math.min(input, Math.max(0, b.cached));
  if (b.cacheWrite === undefined) return cached * p.cachedPrice + (input - cached) * p.cacheWritePrice;
  const written = Math.min(input - cached, Math.max(0, b.cacheWrite));
  return cached * p.cachedPrice + written * p.cacheWritePrice + (input - cached - written);
}
