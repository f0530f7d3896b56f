// Billing of one model call in "units": uncached-input-token equivalents. Cached prefix tokens cost
// `cachedPrice` units each; the rest is written to the cache and costs `cacheWritePrice` units each.
import type { Message } from '../messages';
import { sumTokens, type MessageCounter } from './message-tokens';
import { commonPrefixLength } from './prefix-cache';

/**
 * The shortest prompt prefix providers cache (OpenAI; Anthropic's Sonnet and Opus; Gemini's Flash: 1,024
 * tokens; some models more). The default of replay and of the live estimate alike.
 */
export const DEFAULT_MIN_CACHED_TOKENS = 1024;

/**
 * Tokens of a prefix shared with the previous request that the provider serves from its cache: none when
 * they are fewer than `minCachedTokens` (a shorter prefix is billed whole), else all of them, or where the
 * provider caches in steps (`increment`, cache-increment.ts) the minimum and every whole step past it. The
 * one rule replay and the live estimate bill by.
 */
export function cachedPrefixTokens(sharedTokens: number, minCachedTokens: number, increment = 1): number {
  if (sharedTokens < minCachedTokens) return 0;
  if (!(increment > 1)) return sharedTokens;
  return minCachedTokens + Math.floor((sharedTokens - minCachedTokens) / increment) * increment;
}

/** Throws a RangeError unless `n` is a valid minimum cached prefix (an integer >= 0). */
export function checkMinCachedTokens(n: number): void {
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`minCachedTokens must be an integer >= 0 (got ${n})`);
}

export interface CachePrices {
  cachedPrice: number;
  cacheWritePrice: number;
  /**
   * The shortest prefix a provider caches (see DEFAULT_MIN_CACHED_TOKENS): a shorter shared prefix is
   * billed whole. Default 0: any shared prefix is cached.
   */
  minCachedTokens?: number;
  /** The step the provider caches a prefix in past the minimum (OpenAI: 128); absent: any length. */
  cacheIncrement?: number;
}

export interface CallBill {
  inputTokens: number;
  /** Tokens of the longest message-level prefix shared with the previous request, as far as it is cached. */
  cachedTokens: number;
  /** The rest of the input, billed as a cache write. */
  cacheWriteTokens: number;
  /** Messages of the shared prefix (0 when none of it is cached). */
  cachedMessages: number;
  cost: number;
}

export function billRequest(
  previous: readonly Message[] | undefined,
  next: readonly Message[],
  count: MessageCounter,
  prices: CachePrices,
): CallBill {
  let cachedMessages = previous ? commonPrefixLength(previous, next) : 0;
  let shared = 0;
  for (let i = 0; i < cachedMessages; i++) shared += count(next[i]!);
  const cachedTokens = cachedPrefixTokens(shared, prices.minCachedTokens ?? 0, prices.cacheIncrement);
  const inputTokens = shared + sumTokens(next.slice(cachedMessages), count);
  if (cachedTokens === 0) cachedMessages = 0;
  const cacheWriteTokens = inputTokens - cachedTokens;
  return {
    inputTokens,
    cachedTokens,
    cacheWriteTokens,
    cachedMessages,
    cost: cachedTokens * prices.cachedPrice + cacheWriteTokens * prices.cacheWritePrice,
  };
}

/** Output tokens in units: `outputPrice` is output relative to uncached input (0 when excluded). */
export function billOutput(outputTokens: number, includeOutput: boolean, outputPrice: number): number {
  return includeOutput ? outputTokens * outputPrice : 0;
}
