// What an agent session is made of (AgentOptions) and what it takes up while it runs (LiveSettings).
import type { BudgetLimits, BudgetOptions } from '../budget';
import type { Message, Tokenizer } from '../messages';
import type { Clock, Logger } from '../ports';
import type { StrategyState } from '../strategies/strategy-state';
import type { StrategyName, StrategyOptions } from '../strategies/types';
import type { MoneyPrice, Pricing } from '../cost/pricing';
import type { CallPrices } from './accounting';
import type { LongOutputPort } from './long-output';
import type { ChatProvider } from './provider';
import type { RetryPolicy } from './retry-policy';
import type { CallRecord, SessionState, SummaryCallRecord } from './session-state';
import type { AbortableSleep } from './sleep';
import type { ToolRegistry } from './tool-registry';

export interface AgentOptions {
  provider: ChatProvider;
  model: string;
  tools: ToolRegistry;
  tokenizer: Tokenizer;
  systemPrompt?: string;
  /** Default `cache-aware`. */
  strategy?: StrategyName;
  strategyOptions?: Partial<StrategyOptions>;
  /**
   * The model that writes checkpoints (summary, hybrid); defaults to the agent's own. Its calls are billed
   * at its own `pricing` (another model's prices would misstate them); without it, in its own units, no money.
   */
  summaryModel?: { provider: ChatProvider; model: string; pricing?: Pricing };
  longOutput?: LongOutputPort;
  /** The line naming the session's history file, carried after a checkpoint (see `historyPointer` in the store). */
  historyPointer?: string;
  /** Budgets (approval port included); budget events arrive as `{ type: 'budget' }`. */
  budget?: Omit<BudgetOptions, 'onEvent' | 'clock'>;
  /**
   * The session's id, naming its folder of stored outputs (`tool-outputs/<id>/`, in every masked
   * placeholder); default a random UUID. The panel passes its chat id, as a resumed chat already uses.
   */
  sessionId?: string;
  taskId?: string;
  agentId?: string;
  /** Relative prices; default: the strategy's cache prices and output at 4x input. */
  prices?: Partial<CallPrices>;
  /**
   * The shortest prompt prefix the provider caches: where it reports no usage, a shorter prefix shared
   * with the previous call is estimated uncached. Default: the model's (`prices.minCachedTokens`, from its
   * price entry), else 1,024 tokens, as replay's `--min-cached-prefix`.
   */
  minCachedTokens?: number;
  /** US$ per cost unit when the model's price is known (records and the meter then carry money). */
  money?: MoneyPrice;
  retry?: Partial<RetryPolicy>;
  /** Model calls per `send` before it ends with `max-turns`. */
  maxTurns?: number;
  temperature?: number;
  maxOutputTokens?: number;
  sleep?: AbortableSleep;
  clock?: Clock;
  logger?: Logger;
  /** Called for every message added to the history (e.g. to append it to the history file). */
  onMessage?: (message: Message, index: number, turn: number) => void;
  /**
   * Called when the person's message at `index` (the last one) was not sent because it alone puts the
   * context over the window: it is out of the conversation, and a history file should say so.
   */
  onSetAside?: (message: Message, index: number) => void;
  /**
   * Called with every model call's record once it is final: after the answer's message was added (so a
   * history file keeps the answer, then its record), or at once for a call whose answer is not kept.
   */
  onCall?: (record: CallRecord) => void;
  /** Called with every summarizer call's record. */
  onSummaryCall?: (record: SummaryCallRecord) => void;
  /**
   * Called when the strategy's own state changed (a new checkpoint, a moved mask boundary), after the
   * context was built: a history file keeps the last one so a resumed session goes on from it.
   */
  onStrategyState?: (state: StrategyState) => void;
  /**
   * Restores a session saved with `state`; its strategy state is taken up when it is the same strategy
   * (another strategy starts afresh).
   */
  restore?: SessionState;
}

/**
 * Settings a live session takes up from its next model call on, keeping the conversation: a new strategy
 * starts its own state afresh, as a switch does (the same one with new options or tokenizer goes on from
 * its checkpoint and mask boundary); tokens spent so far count against new budget limits.
 */
export interface LiveSettings {
  strategy?: StrategyName;
  strategyOptions?: Partial<StrategyOptions>;
  tokenizer?: Tokenizer;
  budget?: BudgetLimits;
  /** New prices (a price setting or the model changed). */
  prices?: CallPrices;
  money?: MoneyPrice | null;
}
