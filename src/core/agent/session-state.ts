// The session as plain JSON: the panel restores it after a reload and history files store it.
import { randomUUID } from 'node:crypto';
import type { Message } from '../messages';
import type { ModelUnits } from './model-units';
import { withOrigins } from '../provenance';
import { parseStrategyState, type StrategyState } from '../strategies/strategy-state';
import { isStrategyName, type StrategyName } from '../strategies/types';

export const SESSION_STATE_VERSION = 1;

/** What the provider reported about a call: the whole prompt (uncached + cache reads + cache writes). */
export interface ReportedUsage {
  inputTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  outputTokens?: number;
  /** Of `outputTokens`, the model's reasoning (see ProviderUsage). */
  reasoningTokens?: number;
}

/**
 * One model call as the session accounted for it; history files keep one per call (`kind: 'call'`), so
 * every figure the meter shows can be recomputed from disk. Fields after `at` are absent in states
 * saved before they existed.
 */
export interface CallRecord {
  turn: number;
  /** 1-based model call number within the session (retries count). */
  call: number;
  retry: boolean;
  /** Tokens sent (system + tools + messages + reply priming), by our tokenizer. */
  tokensSent: number;
  rawHistoryTokens: number;
  /**
   * Cache reads: the provider's figure when its usage billed the call, else estimated (the prefix shared
   * with the previous request, by our cached-prefix model).
   */
  cachedTokens: number;
  /** Output tokens billed: the provider's count when reported, else ours. */
  outputTokens: number;
  /** Input + output cost of the call in uncached-input-token units. */
  cost: number;
  /** When the record was made (ms, the session's clock): after the answer, or after the call failed. */
  at: number;
  /** When the call was sent (ms): replay measures the pause before it, which a prompt cache outlives or not. */
  sentAt?: number;
  strategy?: StrategyName;
  /** The strategy's parameters when the call was made. */
  params?: { window: number; polling: number; contextWindow: number; summaryTokens: number };
  tokenizer?: string;
  model?: string;
  /** `tokensSent` by part. */
  parts?: { system: number; tools: number; messages: number; priming: number };
  /**
   * Cache writes: the provider's figure when its usage billed the call (when it reports none, everything
   * it did not read from the cache), else estimated as `tokensSent - cachedTokens`.
   */
  cacheWriteTokens?: number;
  /** As the provider reported it; absent when it reported nothing (vscode.lm, a failure before usage). */
  usage?: ReportedUsage;
  /** What the cost was computed from: the provider's usage, our own count, or nothing (not billed). */
  billedBy?: 'provider' | 'estimate' | 'none';
  /**
   * A call the provider reported no prompt size for, on a model our tokenizer does not count exactly
   * (Claude via vscode.lm): its prompt and answer as the budget counts them (our count scaled for the
   * model's tokenizer, expected-prompt.ts). The cost is billed by these too, so cost and budget agree.
   */
  scaled?: { inputTokens: number; outputTokens: number };
  /** The relative prices the cost used (`reportedWritePrice`, `inputPrice`: see RelativePrices). */
  prices?: {
    cachedPrice: number;
    cacheWritePrice: number;
    reportedWritePrice?: number;
    outputPrice: number;
    inputPrice?: number;
  };
  /** The cost in US$, when the model's price was known, and the price entry it came from. */
  costUsd?: number;
  money?: { usdPerUnit: number; model: string; source: 'default' | 'setting'; asOf?: string };
  /** Observations masked in what this call sent; `newly`: those masked since the previous call. */
  masked?: { count: number; stored: number; newly: { toolCallId?: string; storedAt?: string }[] };
  /** The session budget after the call (tokens counted against it, its limit and mode when set). */
  budget?: { spentTokens: number; limit?: number; mode?: string };
  /** For a failed call: the error's kind (a failed call is billed only by what the provider reported). */
  error?: string;
  /** True when the call's answer was kept in the conversation (the assistant message before this record). */
  answered?: boolean;
}

/** A summarizer call (summary and hybrid strategies), billed beside the model calls. */
export interface SummaryCallRecord {
  /** The model that wrote the summary (absent in records from before it was kept). */
  model?: string;
  /** Our own count of its prompt; `inputTokens` is the provider's figure unless `estimated`. */
  tokensSent?: number;
  /** True when the provider reported no prompt size: `inputTokens` is our count. */
  estimated?: true;
  inputTokens: number;
  /** Of the input, read from and written to the provider's cache, when it reported them. */
  cachedTokens?: number;
  cacheWriteTokens?: number;
  outputTokens: number;
  cost: number;
  costUsd?: number;
  /**
   * Set when `cost` is in this model's units (its own uncached input), not the session's: a separate
   * summary model whose price, or the agent model's, is unknown. Such a cost is kept out of the session's
   * units (`SessionState.cost`), since the two units differ.
   */
  unitsOf?: string;
  /**
   * The agent model when the call was made: without `unitsOf`, `cost` is in its units (absent in records
   * from before it was kept). A conversation that later switched models keeps these units apart.
   */
  agentModel?: string;
  /** As a model call's `scaled`: the prompt and answer the budget counted and the cost was billed by. */
  scaled?: { inputTokens: number; outputTokens: number };
  at?: number;
  /** Tokens the session budget had counted after this call. */
  budget?: { spentTokens: number };
}

export interface SessionState {
  version: typeof SESSION_STATE_VERSION;
  id: string;
  createdAt: number;
  provider: string;
  model: string;
  strategy: StrategyName;
  /**
   * The full, unmasked conversation (tool results as the long-output port returned them). Every message
   * but the system prompt carries its `origin`; states saved before origins existed get them on parsing.
   */
  messages: Message[];
  turns: number;
  calls: CallRecord[];
  /** Summarizer calls, billed separately. */
  summaryCalls: SummaryCallRecord[];
  /**
   * Everything spent so far in the current model's uncached-input-token units (its calls and summaries).
   * A conversation that switched models keeps the earlier models' units in `otherModelUnits`, not here.
   */
  cost: number;
  /** Units of calls made with other models than `model`, per model in its own units; never in `cost`. */
  otherModelUnits?: ModelUnits[];
  /** Tokens counted against the budgets so far (absent in states saved before it existed: 0). */
  spentTokens?: number;
  /**
   * What the strategy keeps between calls (its checkpoint, its mask boundary): a continued session goes on
   * from it when it runs the same strategy. Absent in states saved before it existed: the strategy starts afresh.
   */
  strategyState?: StrategyState;
  status: 'idle' | 'running' | 'completed' | 'max-turns' | 'aborted' | 'budget' | 'error';
}

/** A new conversation: the host's system prompt (if any), nothing said or spent yet. */
export function newSessionState(start: {
  id?: string;
  createdAt: number;
  provider: string;
  model: string;
  strategy: StrategyName;
  systemPrompt: string | undefined;
}): SessionState {
  return {
    version: SESSION_STATE_VERSION,
    id: start.id ?? randomUUID(),
    createdAt: start.createdAt,
    provider: start.provider,
    model: start.model,
    strategy: start.strategy,
    // The system prompt has no origin: it is the host's standing instructions, kept by every strategy.
    messages: start.systemPrompt ? [{ role: 'system', content: start.systemPrompt }] : [],
    turns: 0,
    calls: [],
    summaryCalls: [],
    cost: 0,
    status: 'idle',
  };
}

const STATUSES = new Set(['idle', 'running', 'completed', 'max-turns', 'aborted', 'budget', 'error']);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const ORIGINS = new Set(['person', 'agent', 'environment']);

function fail(why: string): never {
  throw new TypeError(`Invalid session state: ${why}`);
}

function checkMessage(m: unknown, i: number): void {
  if (typeof m !== 'object' || m === null) fail(`messages[${i}] is not an object`);
  const o = m as Record<string, unknown>;
  if (typeof o.role !== 'string' || !ROLES.has(o.role)) fail(`messages[${i}].role is ${JSON.stringify(o.role)}`);
  if (typeof o.content !== 'string') fail(`messages[${i}].content is not a string`);
  if (o.origin !== undefined && (typeof o.origin !== 'string' || !ORIGINS.has(o.origin)))
    fail(`messages[${i}].origin is ${JSON.stringify(o.origin)}`);
  if (o.toolCalls !== undefined) {
    if (!Array.isArray(o.toolCalls)) fail(`messages[${i}].toolCalls is not an array`);
    for (const c of o.toolCalls as unknown[]) {
      const call = c as Record<string, unknown> | null;
      if (!call || typeof call.id !== 'string' || typeof call.name !== 'string' || typeof call.arguments !== 'string')
        fail(`messages[${i}].toolCalls has an entry without string id, name and arguments`);
    }
  }
}

/**
 * Checks parsed JSON (e.g. a history file) and returns it typed; throws a clear TypeError otherwise. A
 * strategy state that does not fit the conversation is left out (the strategy starts afresh) and
 * `onIgnored` says why: the conversation itself is still good to go on with.
 */
export function parseSessionState(value: unknown, onIgnored?: (why: string) => void): SessionState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not an object');
  const o = value as Record<string, unknown>;
  if (o.version !== SESSION_STATE_VERSION)
    fail(`version ${JSON.stringify(o.version)} is not supported (expected ${SESSION_STATE_VERSION})`);
  for (const key of ['id', 'provider', 'model'] as const)
    if (typeof o[key] !== 'string') fail(`${key} is not a string`);
  if (typeof o.strategy !== 'string' || !isStrategyName(o.strategy))
    fail(`unknown strategy ${JSON.stringify(o.strategy)}`);
  for (const key of ['createdAt', 'turns', 'cost'] as const)
    if (typeof o[key] !== 'number' || !Number.isFinite(o[key])) fail(`${key} is not a number`);
  if (
    o.spentTokens !== undefined &&
    !(typeof o.spentTokens === 'number' && o.spentTokens >= 0 && Number.isFinite(o.spentTokens))
  )
    fail('spentTokens is not a number >= 0');
  if (!Array.isArray(o.messages)) fail('messages is not an array');
  (o.messages as unknown[]).forEach(checkMessage);
  if (!Array.isArray(o.calls)) fail('calls is not an array');
  if (!Array.isArray(o.summaryCalls)) fail('summaryCalls is not an array');
  if (typeof o.status !== 'string' || !STATUSES.has(o.status)) fail(`status ${JSON.stringify(o.status)}`);
  const state = structuredClone(o) as unknown as SessionState;
  // A session's own history is a chat whose tool results are `tool` messages: its user messages are a person's.
  state.messages = withOrigins(state.messages, 'chat');
  if (o.strategyState !== undefined) {
    delete state.strategyState;
    try {
      const context = { messages: state.messages, summaryCalls: state.summaryCalls.length };
      state.strategyState = parseStrategyState(o.strategyState, context);
    } catch (e) {
      onIgnored?.(`The saved strategy state was ignored (${(e as Error).message}); the strategy starts afresh.`);
    }
  }
  return state;
}
