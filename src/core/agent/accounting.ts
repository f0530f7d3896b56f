// Exact token counts and cost of each call: messages through the tokenizer (cached per message object),
// plus tool definitions and reply priming; cost with the cached-prefix model of src/core/cost.
import { ANTHROPIC_CACHE_TTL_MS, anthropicCacheBill, type AnthropicCacheState } from '../cost/anthropic-cache';
import { billRequest, cachedPrefixTokens, checkMinCachedTokens, DEFAULT_MIN_CACHED_TOKENS } from '../cost/cost-model';
import { answerTokens, messageCounter, sumTokens, type MessageCounter } from '../cost/message-tokens';
import { pricesAt, type LongContextPrices } from '../cost/long-context';
import { inputUnits, type BilledInput, type RelativePrices } from '../cost/pricing';
import type { Message, Tokenizer } from '../messages';
import type { ProviderUsage, ToolSpec } from './provider';

/** Tokens that prime the assistant's reply, once per request (OpenAI's chat format). */
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Relative prices, the model's long-context tier (which one bills a call depends on its prompt's size)
 * and the shortest prefix its provider caches (absent: DEFAULT_MIN_CACHED_TOKENS).
 */
export type CallPrices = RelativePrices & {
  longContext?: LongContextPrices;
  minCachedTokens?: number;
  /** The step the provider caches a prefix in (OpenAI's models: 128 tokens); absent: any length. */
  cacheIncrement?: number;
};

/** Tokens of what is sent, by part (they add up to `tokensSent`). */
export interface SentParts {
  system: number;
  tools: number;
  messages: number;
  /** Reply priming, once per request. */
  priming: number;
}

/**
 * Which cache the provider has: `anthropic` reads only where our Anthropic provider's breakpoints wrote
 * (cost/anthropic-cache.ts); `prefix` serves any prefix shared with the previous request (OpenAI and the like).
 */
export type CacheKind = 'prefix' | 'anthropic';

export interface PreparedBill {
  tokensSent: number;
  parts: SentParts;
  rawHistoryTokens: number;
  cachedTokens: number;
  inputCost: number;
}

export class CallAccountant {
  readonly count: MessageCounter;
  private previous: readonly Message[] | undefined;
  private previousTools = '';
  private toolsKey = '';
  private toolTokens = 0;
  private anthropic: AnthropicCacheState | undefined;
  /** When the provider last had a prompt of this conversation (commit): Anthropic's entries live 5 minutes on. */
  private readAt: number | undefined;
  /** The cache after the request billed last, taken up when that request is committed. */
  private pendingAnthropic: { sent: readonly Message[]; next: AnthropicCacheState } | undefined;

  /** The shortest prefix the provider caches: a shorter shared prefix, tool definitions included, is billed whole. */
  private readonly minCachedTokens: number;

  /**
   * `minCachedTokens`: overrides the model's shortest cached prefix (its price entry's, else replay's
   * default, DEFAULT_MIN_CACHED_TOKENS).
   */
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly prices: CallPrices,
    private readonly minCachedOverride?: number,
    private readonly cacheKind: CacheKind = 'prefix',
  ) {
    this.minCachedTokens = minCachedOverride ?? prices.minCachedTokens ?? DEFAULT_MIN_CACHED_TOKENS;
    checkMinCachedTokens(this.minCachedTokens);
    this.count = messageCounter(tokenizer);
  }

  private toolsCost(tools: readonly ToolSpec[]): number {
    const key = JSON.stringify(tools);
    if (key !== this.toolsKey) {
      this.toolsKey = key;
      this.toolTokens = tools.length === 0 ? 0 : this.tokenizer.count(key);
    }
    return this.toolTokens;
  }

  /**
   * Bills a request before it is sent (at `now`, when known); `commit` makes it the previous request of the
   * next bill. Past Anthropic's cache lifetime since the last commit, nothing of its cache is left.
   */
  bill(sent: readonly Message[], history: readonly Message[], tools: readonly ToolSpec[], now?: number): PreparedBill {
    if (now !== undefined && this.readAt !== undefined && now - this.readAt > ANTHROPIC_CACHE_TTL_MS)
      this.anthropic = undefined;
    const overhead = this.toolsCost(tools) + REPLY_PRIMING_TOKENS;
    // Tool definitions come first in every provider's prompt: while they are unchanged since the last call
    // they and the shared message prefix are cached; a change (an MCP server came up) ends the prefix there.
    // The minimum a provider caches applies to that whole prefix, so the messages' share is billed without one.
    const toolsSame = this.previous !== undefined && this.previousTools === this.toolsKey;
    const b = billRequest(toolsSame ? this.previous : undefined, sent, this.count, {
      cachedPrice: this.prices.cachedPrice,
      cacheWritePrice: this.prices.cacheWritePrice,
      minCachedTokens: 0,
    });
    const toolsCached = toolsSame ? this.toolTokens : 0;
    const system = sumTokens(
      sent.filter((m) => m.role === 'system'),
      this.count,
    );
    const tokensSent = b.inputTokens + overhead;
    const cachedTokens =
      this.cacheKind === 'anthropic'
        ? this.anthropicCached(sent)
        : cachedPrefixTokens(b.cachedTokens + toolsCached, this.minCachedTokens, this.prices.cacheIncrement);
    return {
      tokensSent,
      parts: { system, tools: this.toolTokens, messages: b.inputTokens - system, priming: REPLY_PRIMING_TOKENS },
      rawHistoryTokens: sumTokens(history, this.count) + overhead,
      cachedTokens,
      // Everything not served from the cache is written to it (the same rule replay bills a record by).
      inputCost: inputUnits({ input: tokensSent, cached: cachedTokens }, this.pricesFor(tokensSent)),
    };
  }

  private anthropicCached(sent: readonly Message[]): number {
    const a = this.anthropicBill(sent);
    this.pendingAnthropic = { sent, next: a.next };
    return a.cached;
  }

  private anthropicBill(sent: readonly Message[]): ReturnType<typeof anthropicCacheBill> {
    return anthropicCacheBill(this.anthropic, sent, this.count, {
      toolsKey: this.toolsKey,
      toolTokens: this.toolTokens,
      minCachedTokens: this.minCachedTokens,
    });
  }

  /** Tokens a request carries beside its messages (tool definitions, reply priming): the window leaves room. */
  reserved(tools: readonly ToolSpec[]): number {
    return this.toolsCost(tools) + REPLY_PRIMING_TOKENS;
  }

  get relativePrices(): CallPrices {
    return this.prices;
  }

  commit(sent: readonly Message[], now?: number): void {
    this.previous = sent;
    this.readAt = now;
    this.previousTools = this.toolsKey;
    if (this.cacheKind !== 'anthropic') return;
    const p = this.pendingAnthropic;
    this.anthropic = p?.sent === sent ? p.next : this.anthropicBill(sent).next;
    this.pendingAnthropic = undefined;
  }

  /** A new accountant (another tokenizer or prices) that goes on from this one's previous request. */
  carriedTo(tokenizer: Tokenizer, prices: CallPrices): CallAccountant {
    const next = new CallAccountant(tokenizer, prices, this.minCachedOverride, this.cacheKind);
    next.previous = this.previous;
    next.previousTools = this.previousTools;
    next.anthropic = this.anthropic;
    next.readAt = this.readAt;
    return next;
  }

  /** The prices a call with a prompt of `promptTokens` is billed at (a long-context tier over its threshold). */
  pricesFor(promptTokens: number): RelativePrices {
    return pricesAt(this.prices, promptTokens);
  }

  /**
   * Input cost from what the provider reported (a failed call is billed only that way), and whether its
   * cached part had to be estimated (see reportedInput).
   */
  reportedInputCost(usage: ProviderUsage, estimate: CachedShare): { inputCost: number; by: 'provider' | 'estimate' } {
    const { input, estimated } = reportedInput(usage, estimate);
    return { inputCost: inputUnits(input, this.pricesFor(input.input)), by: estimated ? 'estimate' : 'provider' };
  }

  /**
   * Input cost of a call the provider reported no prompt size for, at the size the budget keeps for it
   * (`tokens`, our count scaled for the model's tokenizer), with our count's cached share (see reportedInput).
   */
  scaledInputCost(tokens: number, estimate: CachedShare): number {
    const { input } = reportedInput({ inputTokens: tokens }, estimate);
    return inputUnits(input, this.pricesFor(input.input));
  }

  /** Output cost of a call whose prompt had `promptTokens` (its size picks the tier). */
  outputCost(outputTokens: number, promptTokens = 0): number {
    return outputTokens * this.pricesFor(promptTokens).outputPrice;
  }

  /** Output tokens of an answer when the provider did not report them. */
  /** Tokens of a piece of text, as our tokenizer counts them (a streamed part of an answer). */
  countText(text: string): number {
    return this.tokenizer.count(text);
  }

  countOutput(message: Message): number {
    return answerTokens(message, (m) => this.tokenizer.countMessage(m));
  }
}

/** Our own count of a request: its size and the part we expect the provider's cache to serve. */
export interface CachedShare {
  tokensSent: number;
  cachedTokens: number;
}

/**
 * The input tokens a provider's usage bills. A server that reports no cached figure at all (some
 * OpenAI-compatible ones) may still have served the prompt's prefix from its cache, and billing it all
 * uncached would overstate the call several times over. So when our own count expected a cached prefix,
 * the reported prompt is split by that count's cached share and the result is an estimate (`estimated`;
 * the record keeps the cached figure absent). One rule for the live call and a record billed again.
 */
export function reportedInput(usage: ProviderUsage, estimate: CachedShare): { input: BilledInput; estimated: boolean } {
  const total = usage.inputTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens !== undefined ? { cacheWrite: usage.cacheWriteTokens } : {};
  const known = usage.cachedTokens !== undefined || usage.inputTokens === undefined;
  if (known || estimate.cachedTokens <= 0 || estimate.tokensSent <= 0)
    return { input: { input: total, cached: usage.cachedTokens ?? 0, ...cacheWrite }, estimated: false };
  const share = Math.min(1, estimate.cachedTokens / estimate.tokensSent);
  return { input: { input: total, cached: Math.round(total * share), ...cacheWrite }, estimated: true };
}
