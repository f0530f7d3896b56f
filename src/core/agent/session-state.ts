// The session as plain JSON: the panel restores it after a reload and history files store it.
import type { Message } from '../messages';
import { withOrigins } from '../provenance';
import { isStrategyName, type StrategyName } from '../strategies/types';

export const SESSION_STATE_VERSION = 1;

export interface CallRecord {
  turn: number;
  call: number;
  retry: boolean;
  tokensSent: number;
  rawHistoryTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Input + output cost of the call in uncached-input-token units. */
  cost: number;
  providerInputTokens?: number;
  providerCachedTokens?: number;
  at: number;
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
  summaryCalls: { inputTokens: number; outputTokens: number; cost: number }[];
  /** Everything spent so far in uncached-input-token units (calls and summaries). */
  cost: number;
  /** Tokens counted against the budgets so far (absent in states saved before it existed: 0). */
  spentTokens?: number;
  status: 'idle' | 'running' | 'completed' | 'max-turns' | 'aborted' | 'budget' | 'error';
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

/** Checks parsed JSON (e.g. a history file) and returns it typed; throws a clear TypeError otherwise. */
export function parseSessionState(value: unknown): SessionState {
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
  return state;
}
