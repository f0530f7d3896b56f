// Which prompt cache replay bills a trajectory's calls with. The generic model (cost/prefix-cache.ts)
// serves any prefix shared with the previous request, as OpenAI and Gemini do; Anthropic reads only where
// a breakpoint wrote, within a 20-block lookback (cost/anthropic-cache.ts, the rule our live agent bills
// Anthropic by). Billing an Anthropic run with the generic model overstates its cache reads, so its cost
// comes out too low.
import type { Message } from '../messages';
import { ANTHROPIC_CACHE_TTL_MS, anthropicCacheBill, type AnthropicCacheState } from '../cost/anthropic-cache';
import { billRequest, type CachePrices, type CallBill } from '../cost/cost-model';
import { sumTokens, type MessageCounter } from '../cost/message-tokens';
import type { TrajectoryFormat } from '../trajectories/types';

export type CacheModel = 'prefix' | 'anthropic';
/** `auto`: by the model the log names (Claude: anthropic), else anthropic for logs only Anthropic's API writes. */
export type CacheModelChoice = CacheModel | 'auto';
export const CACHE_MODEL_CHOICES: readonly CacheModelChoice[] = ['auto', 'prefix', 'anthropic'];

export function isCacheModelChoice(s: string): s is CacheModelChoice {
  return (CACHE_MODEL_CHOICES as readonly string[]).includes(s);
}

/** Formats whose calls certainly went to Anthropic's Messages API (Claude Code, Anthropic requests). */
const ANTHROPIC_FORMATS: ReadonlySet<TrajectoryFormat> = new Set(['claude-code', 'anthropic-request']);

/**
 * Model names whose provider caches as Anthropic does (explicit breakpoints): Claude, whether called
 * directly, through Bedrock or Vertex, or through an OpenAI-compatible proxy (LiteLLM, OpenRouter).
 */
const ANTHROPIC_MODEL = /claude/i;
/** Model families whose providers serve any shared prefix (OpenAI, Gemini, and the open models' hosts). */
const PREFIX_MODEL =
  /(^|[/:.\s_-])(gpt|o[1-9]|chatgpt|codex|gemini|gemma|qwen|qwq|deepseek|llama|mistral|mixtral|codestral|devstral|grok|kimi|moonshot|glm|minimax)/i;

/** The cache model a trajectory is billed with, and why (shown in the report). */
export interface CacheModelPick {
  cacheModel: CacheModel;
  /** `option`: --cache-model; `model`: the model the log names; `format`: the log's format. */
  basis: 'option' | 'model' | 'format';
  /** The model name the pick was made by (basis `model`), or the one the log named that told nothing. */
  model?: string;
}

/** Which cache a model name says, or undefined when the name does not tell (a local or unknown model). */
export function cacheModelOfName(name: string): CacheModel | undefined {
  if (ANTHROPIC_MODEL.test(name)) return 'anthropic';
  if (PREFIX_MODEL.test(name)) return 'prefix';
  return undefined;
}

/**
 * The cache model a trajectory of `format` whose calls named `model` is billed with under `choice`
 * (absent: auto). Auto goes by the model where the log names one the family of which is known (a Claude
 * model through an OpenAI-compatible tool is cached the Anthropic way, a GPT model in an Anthropic-shaped
 * log is not), else by the format.
 */
export function cacheModelFor(
  choice: CacheModelChoice | undefined,
  format: TrajectoryFormat,
  model?: string,
): CacheModelPick {
  if (choice === 'prefix' || choice === 'anthropic') return { cacheModel: choice, basis: 'option' };
  const named = model !== undefined ? cacheModelOfName(model) : undefined;
  if (named) return { cacheModel: named, basis: 'model', model: model! };
  return {
    cacheModel: ANTHROPIC_FORMATS.has(format) ? 'anthropic' : 'prefix',
    basis: 'format',
    ...(model !== undefined ? { model } : {}),
  };
}

/** Why a pick was made, in words (the report's per-trajectory basis). */
export function cacheModelBasisText(p: CacheModelPick, format: TrajectoryFormat): string {
  if (p.basis === 'option') return `--cache-model ${p.cacheModel}`;
  if (p.basis === 'model') return `model ${p.model}`;
  return p.model !== undefined
    ? `format ${format} (model ${p.model} is of no known family)`
    : `format ${format} (the log names no model)`;
}

export { ANTHROPIC_CACHE_TTL_MS };

/** True when a pause of `idleMs` before a call (ModelCall.idleBefore) outlasts the cache of `model`. */
export function cacheExpired(model: CacheModel, idleMs: number | undefined): boolean {
  return model === 'anthropic' && idleMs !== undefined && idleMs > ANTHROPIC_CACHE_TTL_MS;
}

/**
 * A biller for one conversation: each call's request, billed after the ones before it, `idleMs` after the
 * previous one (absent: unknown, taken as within the cache's lifetime). Under `anthropic` the requests are
 * laid out as our Anthropic provider lays them out (its breakpoints); what is neither read nor written
 * (after the last breakpoint, or a prefix under the minimum) is plain input at price 1.
 */
export function cacheBiller(
  model: CacheModel,
  count: MessageCounter,
  prices: CachePrices,
): (m: readonly Message[], idleMs?: number) => CallBill {
  let previous: readonly Message[] | undefined;
  if (model === 'prefix')
    return (messages) => {
      const bill = billRequest(previous, messages, count, prices);
      previous = messages;
      return bill;
    };
  let state: AnthropicCacheState | undefined;
  return (messages, idleMs) => {
    if (cacheExpired(model, idleMs)) state = undefined;
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
