// Which prompt cache replay bills a trajectory's calls with. The generic model (cost/prefix-cache.ts)
// serves any prefix shared with the previous request, as OpenAI and Gemini do; Anthropic reads only where
// a breakpoint wrote, within a 20-block lookback (cost/anthropic-cache.ts, the rule our live agent bills
// Anthropic by). Billing an Anthropic run with the generic model overstates its cache reads, so its cost
// comes out too low.
import type { Message } from '../messages';
import { anthropicCacheBill, type AnthropicCacheState } from '../cost/anthropic-cache';
import { billRequest, type CachePrices, type CallBill } from '../cost/cost-model';
import { sumTokens, type MessageCounter } from '../cost/message-tokens';
import type { TrajectoryFormat } from '../trajectories/types';

export type CacheModel = 'prefix' | 'anthropic';
/** `auto`: anthropic for logs only Anthropic's models write, prefix for the rest. */
export type CacheModelChoice = CacheModel | 'auto';
export const CACHE_MODEL_CHOICES: readonly CacheModelChoice[] = ['auto', 'prefix', 'anthropic'];

export function isCacheModelChoice(s: string): s is CacheModelChoice {
  return (CACHE_MODEL_CHOICES as readonly string[]).includes(s);
}

/** Formats whose calls certainly went to Anthropic's Messages API (Claude Code, Anthropic requests). */
const ANTHROPIC_FORMATS: ReadonlySet<TrajectoryFormat> = new Set(['claude-code', 'anthropic-request']);

/** The cache model a trajectory of `format` is billed with under `choice` (absent: auto). */
export function cacheModelFor(choice: CacheModelChoice | undefined, format: TrajectoryFormat): CacheModel {
  if (choice === 'prefix' || choice === 'anthropic') return choice;
  return ANTHROPIC_FORMATS.has(format) ? 'anthropic' : 'prefix';
}

/**
 * A biller for one conversation: each call's request, billed after the ones before it. Under `anthropic`
 * the requests are laid out as our Anthropic provider lays them out (its breakpoints); what is neither read
 * nor written (after the last breakpoint, or a prefix under the minimum) is plain input at price 1.
 */
export function cacheBiller(
  model: CacheModel,
  count: MessageCounter,
  prices: CachePrices,
): (m: readonly Message[]) => CallBill {
  let previous: readonly Message[] | undefined;
  if (model === 'prefix')
    return (messages) => {
      const bill = billRequest(previous, messages, count, prices);
      previous = messages;
      return bill;
    };
  let state: AnthropicCacheState | undefined;
  return (messages) => {
    // Replay sends no tool definitions: the prefix is the system prompt and the messages.
    const a = anthropicCacheBill(state, messages, count, {
      toolsKey: '',
      toolTokens: 0,
      minCachedTokens: prices.minCachedTokens ?? 0,
    });
    state = a.next;
    const inputTokens = sumTokens(messages, count);
    const plain = inputTokens - a.cached - a.written;
    return {
      inputTokens,
      cachedTokens: a.cached,
      cacheWriteTokens: a.written,
      cachedMessages: 0,
      cost: a.cached * prices.cachedPrice + a.written * prices.cacheWritePrice + plain,
    };
  };
}
