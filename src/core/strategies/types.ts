// The strategy port: what the model sees before every call. Replay and the agent loop both use it.
import type { Message, Tokenizer } from '../messages';
import type { StrategyState } from './strategy-state';

export type StrategyName = 'raw' | 'masking' | 'summary' | 'hybrid' | 'retry-filter' | 'sliding-window' | 'cache-aware';

export const STRATEGY_NAMES: readonly StrategyName[] = [
  'raw',
  'masking',
  'summary',
  'hybrid',
  'retry-filter',
  'sliding-window',
  'cache-aware',
];

export function isStrategyName(value: string): value is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(value);
}

/** Writes checkpoints. In the extension an LLM; in replay a labelled, fixed-size stand-in. */
export interface Summarizer {
  /** True when the text is not a real summary (a size stand-in): totals then say "estimated". */
  readonly estimated: boolean;
  /** `asked`: the person's messages before `messages` (the task, earlier instructions), for context. */
  summarize(
    messages: readonly Message[],
    previousCheckpoint: string | undefined,
    asked?: readonly Message[],
  ): Promise<string>;
}

/** One observation replaced by a placeholder. */
export interface MaskRecord {
  /** Index of the observation in the history passed to `build`. */
  index: number;
  lines: number;
  /** Where the full text lives (workspace-relative), when it was stored. */
  storedAt?: string;
}

/** One summarizer call made while building this context. */
export interface SummaryRecord {
  /** Turns (0-based, end exclusive) folded into this checkpoint by this call. */
  fromTurn: number;
  toTurn: number;
  /** Tokens of the summarizer's prompt and of its answer: billed as a separate call. */
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  text: string;
}

export interface ContextResult {
  messages: Message[];
  /** Observations shown as placeholders in `messages`. */
  masked: MaskRecord[];
  /** Summarizer calls made for this model call (usually none). */
  summaries: SummaryRecord[];
  /** How many turns are currently folded into a checkpoint or summary. */
  summarizedTurns: number;
  /**
   * Set when even the strategy's smallest context (everything older than the latest turn masked or
   * summarized, the person's messages kept) is over the usable window: the agent says so instead of sending.
   * Built with `summarize: false`, it is the smallest context without a new summary.
   */
  overWindow?: WindowOverflow;
}

export interface WindowOverflow {
  /** Tokens of the smallest context the strategy could build. */
  tokens: number;
  /** The usable window (the context window less what the request carries beside the messages). */
  window: number;
  /** Why summarizing failed, when a new summary could have made the context smaller (see SummaryRest). */
  summaryFailed?: string;
}

export interface BuildOptions {
  /** This call repeats a failed one (retry-filter drops tool traffic then). */
  retry?: boolean;
  /** With `retry`: a short corrective note for the model (why the call is repeated), sent last. */
  note?: string;
  /**
   * Tokens the request carries beside the messages (tool definitions, reply priming): every window
   * check leaves room for them. 0 when unknown (replay of logs that did not keep their tools).
   */
  reservedTokens?: number;
  /**
   * False: call no summarizer, keep what earlier summaries folded (the summarizer just failed, and the
   * model call must still go ahead). Default true.
   */
  summarize?: boolean;
}

/** The model's window less what the request carries beside the messages. */
export function usableWindow(contextWindow: number, options?: BuildOptions): number {
  return Math.max(1, contextWindow - Math.max(0, options?.reservedTokens ?? 0));
}

/** Created per conversation; may keep state (checkpoints, the mask boundary) between calls. */
export interface ContextStrategy {
  readonly name: StrategyName;
  /** `history`: every message before the model call, the same conversation growing call by call. */
  build(history: readonly Message[], options?: BuildOptions): Promise<ContextResult>;
  /** What it keeps between calls, as plain JSON (undefined: nothing yet, or a strategy that keeps nothing). */
  snapshot?(): StrategyState | undefined;
  /** Goes on from a snapshot of the same strategy, checked against the conversation (`parseStrategyState`). */
  restore?(state: StrategyState): void;
}

export interface StrategyOptions {
  /** Masking window M (turns whose observations stay verbatim). */
  window: number;
  /** Masking advances its boundary only every `polling` turns. */
  polling: number;
  /** Cached input price relative to uncached (0.1 at Anthropic and current OpenAI models). */
  cachedPrice: number;
  /** Cache write price relative to uncached input (1.25 models Anthropic's 5-minute writes). */
  cacheWritePrice: number;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Size of one summary in tokens (stand-in size, and the budget asked of the summarizer). */
  summaryTokens: number;
}

export const DEFAULT_STRATEGY_OPTIONS: StrategyOptions = {
  window: 10,
  polling: 1,
  cachedPrice: 0.1,
  cacheWritePrice: 1.0,
  contextWindow: 200_000,
  summaryTokens: 400,
};

export interface StrategyDeps {
  tokenizer: Tokenizer;
  summarizer: Summarizer;
  /** A line naming the session's history file, carried after a checkpoint (summary, hybrid). */
  historyPointer?: string;
}

/** Throws a clear error for options no strategy can work with. */
export function validateStrategyOptions(o: StrategyOptions): void {
  const bad = (what: string): never => {
    throw new RangeError(`Invalid strategy option: ${what}`);
  };
  if (!Number.isInteger(o.window) || o.window < 1) bad(`window must be an integer >= 1 (got ${o.window})`);
  if (!Number.isInteger(o.polling) || o.polling < 1) bad(`polling must be an integer >= 1 (got ${o.polling})`);
  if (!(o.cachedPrice >= 0 && o.cachedPrice <= 1)) bad(`cachedPrice must be in [0, 1] (got ${o.cachedPrice})`);
  if (!(o.cacheWritePrice >= 1 && Number.isFinite(o.cacheWritePrice)))
    bad(`cacheWritePrice must be a number >= 1 (got ${o.cacheWritePrice})`);
  if (!Number.isInteger(o.contextWindow) || o.contextWindow < 1)
    bad(`contextWindow must be a positive integer (got ${o.contextWindow})`);
  if (!Number.isInteger(o.summaryTokens) || o.summaryTokens < 1)
    bad(`summaryTokens must be a positive integer (got ${o.summaryTokens})`);
}
