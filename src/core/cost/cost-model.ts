// Billing of one model call in "units": uncached-input-token equivalents. Cached prefix tokens cost
// `cachedPrice` units each; the rest is written to the cache and costs `cacheWritePrice` units each.
import type { Message } from '../messages';
import { sumTokens, type MessageCounter } from './message-tokens';
import { commonPrefixLength } from './prefix-cache';

export interface CachePrices {
  cachedPrice: number;
  cacheWritePrice: number;
  /**
   * The shortest prefix a provider caches (OpenAI, Anthropic's Sonnet and Gemini's Flash: 1,024 tokens;
   * some models more): a shorter shared prefix is billed whole. Default 0: any shared prefix is cached.
   */
  minCachedTokens?: number;
}

export interface CallBill {
  inputTokens: number;
  /** Tokens of the longest message-level prefix shared with the previous request. */
  cachedTokens: number;
  /** The rest of the input, billed as a cache write. */
  cacheWriteTokens: number;
  /** Messages of the shared prefix. */
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
  let cachedTokens = 0;
  for (let i = 0; i < cachedMessages; i++) cachedTokens += count(next[i]!);
  if (cachedTokens < (prices.minCachedTokens ?? 0)) [cachedMessages, cachedTokens] = [0, 0];
  const inputTokens = cachedTokens + sumTokens(next.slice(cachedMessages), count);
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
