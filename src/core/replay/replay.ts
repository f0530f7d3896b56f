// Replays a recorded trajectory call by call under a strategy and bills every call with the
// prompt-cache model. Model call k sends the context the strategy builds from the messages that call
// sent (everything before its reply, or less after a compaction); the agent's own answers are taken
// from the recording (replay does not re-run it).
import type { Message, Tokenizer } from '../messages';
import { callsOf, contextOf, type RecordedUsage, type Trajectory } from '../trajectories/types';
import { billOutput, checkMinCachedTokens, DEFAULT_MIN_CACHED_TOKENS } from '../cost/cost-model';
import { cacheIncrementOf } from '../cost/cache-increment';
import { answerTokens, messageCounter } from '../cost/message-tokens';
import { createStrategy } from '../strategies/registry';
import { createStandInSummarizer } from '../strategies/stand-in-summarizer';
import {
  DEFAULT_STRATEGY_OPTIONS,
  validateStrategyOptions,
  type StrategyName,
  type StrategyOptions,
} from '../strategies/types';
import { aggregate, aggregateRecorded, type RecordedTotals, type StrategyTotals } from './aggregate';
import {
  cacheBiller,
  cacheExpired,
  cacheModelBasisText,
  cacheModelFor,
  type CacheModel,
  type CacheModelChoice,
} from './cache-model';

export { STRATEGY_NAMES, isStrategyName, type StrategyName } from '../strategies/types';
export { aggregate, aggregateRecorded, type RecordedTotals, type StrategyTotals };

export interface ReplayOptions extends StrategyOptions {
  /** Add output tokens to the cost (at `outputPrice` units each). */
  includeOutput: boolean;
  /** Output token price relative to uncached input; 1 when not given. */
  outputPrice?: number;
  /** A shared prefix shorter than this is not cached (see CachePrices); 0 caches any. */
  minCachedTokens: number;
  /** The prompt cache calls are billed with (cache-model.ts); absent: auto, by the model the log names, else its format. */
  cacheModel?: CacheModelChoice;
}

export { DEFAULT_MIN_CACHED_TOKENS };

export const DEFAULT_REPLAY_OPTIONS: ReplayOptions = {
  ...DEFAULT_STRATEGY_OPTIONS,
  includeOutput: false,
  minCachedTokens: DEFAULT_MIN_CACHED_TOKENS,
  cacheModel: 'auto',
};

export interface CallRecord {
  /** 0-based model call. */
  call: number;
  /** Tokens of the context sent on this call plus any summarizer input made for it. */
  inputTokens: number;
  /** Tokens of the context sent on this call. */
  contextTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Output tokens of the call: recorded by the trajectory, else counted from the assistant message. */
  outputTokens: number;
  outputRecorded: boolean;
  /** Billed units: the call, its summarizer calls (input at the cache-write price), and output when included. */
  cost: number;
  maskedObservations: number;
  summaryCall: boolean;
  /** Summarizer calls made for this call (0 or, rarely, more). */
  summaryCalls: number;
  summaryInputTokens: number;
  summaryOutputTokens: number;
  /** What the provider recorded for this call, when the log kept it. */
  recorded?: RecordedUsage;
}

export interface TrajectoryReplay {
  trajectoryId: string;
  format: Trajectory['format'];
  strategy: StrategyName;
  /** The prompt cache its calls were billed with. */
  cacheModel: CacheModel;
  /** Why that cache: `--cache-model ...`, `model NAME`, or `format FORMAT (...)`. */
  cacheModelBasis: string;
  calls: CallRecord[];
  /** True when summaries came from the fixed-size stand-in: their sizes and costs are estimates. */
  summaryEstimated: boolean;
  /** Caveats that must be shown with the numbers. */
  notes: string[];
  /** Money the log recorded for the whole run, when it keeps only a total. */
  recordedCost?: number;
  recordedSummaries?: Trajectory['recordedSummaries'];
  /** Media parts this run sent whose tokens are not counted: its totals are lower bounds. */
  uncountedMedia?: { file: string; parts: number };
}

export interface ReplayHooks {
  /** Sees the exact messages of every call as the strategy built them (for `--dump-contexts`). */
  onContext?: (call: number, messages: readonly Message[]) => void | Promise<void>;
}

export const RETRY_FILTER_NOTE =
  'retry-filter: recorded trajectories carry no retry flag, so replay sends every call as a first attempt (identical to raw).';

/** One wording for every run, so that the report says it once. */
export const CACHE_EXPIRED_NOTE =
  "anthropic cache: a call that came after a pause longer than the cache's 5-minute lifetime (by the log's times) is billed with nothing read from the cache.";

export async function replayTrajectory(
  t: Trajectory,
  strategy: StrategyName,
  options: ReplayOptions,
  tokenizer: Tokenizer,
  hooks: ReplayHooks = {},
): Promise<TrajectoryReplay> {
  validateStrategyOptions(options);
  const outputPrice = options.outputPrice ?? 1;
  if (!(outputPrice >= 0 && Number.isFinite(outputPrice)))
    throw new RangeError(`outputPrice must be >= 0 (got ${outputPrice})`);
  checkMinCachedTokens(options.minCachedTokens);
  const summarizer = createStandInSummarizer(tokenizer, options.summaryTokens);
  const s = createStrategy(strategy, { tokenizer, summarizer }, options);
  const count = messageCounter(tokenizer);
  const calls: CallRecord[] = [];
  const pick = cacheModelFor(options.cacheModel, t.format, t.model);
  const cacheModel = pick.cacheModel;
  // OpenAI's models are served from the cache in steps (cost/cache-increment.ts); Anthropic's at breakpoints.
  const increment = cacheModel === 'prefix' && t.model !== undefined ? cacheIncrementOf(t.model) : undefined;
  const billCall = cacheBiller(cacheModel, count, {
    ...options,
    ...(increment !== undefined ? { cacheIncrement: increment } : {}),
  });
  let summaryEstimated = false;
  let expired = 0;
  for (const [k, call] of callsOf(t).entries()) {
    const built = await s.build(contextOf(t, call), { retry: false });
    const bill = billCall(built.messages, call.idleBefore);
    if (cacheExpired(cacheModel, call.idleBefore)) expired++;
    await hooks.onContext?.(k, built.messages);
    const summaryInputTokens = built.summaries.reduce((n, r) => n + r.inputTokens, 0);
    // A summarizer prompt shares no cached prefix with the agent's prompts, nor (past its short system
    // prompt, under any provider's minimum) with the previous one: it is billed like an agent call with
    // nothing cached, all of it written to the cache (the Anthropic provider marks it for caching).
    const summaryInputCost = summaryInputTokens * options.cacheWritePrice;
    const summaryOutputTokens = built.summaries.reduce((n, r) => n + r.outputTokens, 0);
    if (built.summaries.some((r) => r.estimated)) summaryEstimated = true;
    const action = call.output !== undefined ? t.messages[call.output] : undefined;
    const recordedOutput = call.recorded?.outputTokens;
    const outputTokens = recordedOutput ?? (action ? answerTokens(action, count) : 0);
    calls.push({
      call: k,
      inputTokens: bill.inputTokens + summaryInputTokens,
      contextTokens: bill.inputTokens,
      cachedTokens: bill.cachedTokens,
      cacheWriteTokens: bill.cacheWriteTokens,
      outputTokens,
      outputRecorded: recordedOutput !== undefined,
      cost:
        bill.cost +
        summaryInputCost +
        billOutput(outputTokens, options.includeOutput, outputPrice) +
        billOutput(summaryOutputTokens, options.includeOutput, outputPrice),
      maskedObservations: built.masked.length,
      summaryCall: built.summaries.length > 0,
      summaryCalls: built.summaries.length,
      summaryInputTokens,
      summaryOutputTokens,
      ...(call.recorded ? { recorded: call.recorded } : {}),
    });
  }
  const notes = strategy === 'retry-filter' ? [RETRY_FILTER_NOTE] : [];
  if (expired > 0) notes.push(CACHE_EXPIRED_NOTE);
  if (summaryEstimated)
    notes.push(
      `${strategy}: summaries are a fixed ${options.summaryTokens}-token stand-in (no model called); sizes and costs are estimates. Each summarizer prompt is billed as written to the cache whole (cache-write price ${options.cacheWritePrice}): it shares no cached prefix.`,
    );
  return {
    trajectoryId: t.id,
    format: t.format,
    strategy,
    cacheModel,
    cacheModelBasis: cacheModelBasisText(pick, t.format),
    calls,
    summaryEstimated,
    notes,
    ...(t.recordedCost !== undefined ? { recordedCost: t.recordedCost } : {}),
    ...(t.recordedSummaries !== undefined ? { recordedSummaries: t.recordedSummaries } : {}),
    ...(t.uncountedMedia ? { uncountedMedia: { file: t.source, parts: t.uncountedMedia } } : {}),
  };
}
