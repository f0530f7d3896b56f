// Typed events the loop emits for the UI (and history files). Plain data: they cross the webview protocol.
import type { BudgetEvent } from '../budget';
import type { StrategyName } from '../strategies/types';
import type { ProviderErrorInfo } from './errors';
import type { ModelUnits } from './model-units';
import type { CallRecord, SummaryCallRecord } from './session-state';
import type { ToolCallLabel } from './tool-registry';

export type ToolCallStatus = 'ok' | 'error' | 'invalid' | 'cancelled';

export interface MaskedObservation {
  /** Index of the observation in the session's history. */
  index: number;
  toolCallId?: string;
  tool?: string;
  lines: number;
  storedAt?: string;
}

export interface ContextPrepared {
  turn: number;
  /** 1-based model call number within the session (retries count). */
  call: number;
  strategy: StrategyName;
  retry: boolean;
  messages: number;
  /** Exact tokens of what is sent (messages, tool definitions, reply priming). */
  tokensSent: number;
  /** What the raw history would have cost to send. */
  rawHistoryTokens: number;
  /** Tokens of the prefix shared with the previous request (the cached-prefix model). */
  cachedTokens: number;
  /** Cost of this call's input in uncached-input-token units. */
  inputCost: number;
  /** Every call of the session so far including this one's input, in the same units (the current model's). */
  costSoFar: number;
  /** Units of earlier models' calls (the conversation switched models), per model: never in `costSoFar`. */
  otherModelUnits?: ModelUnits[];
  masked: MaskedObservation[];
  summarizedTurns: number;
  /** True when the tokenizer is the chars/4 estimate. */
  estimated: boolean;
}

export type StopReason = 'completed' | 'max-turns' | 'aborted' | 'budget' | 'error';

export type AgentEvent =
  | { type: 'turn-started'; turn: number; at: number }
  | ({ type: 'context-prepared' } & ContextPrepared)
  | { type: 'text-delta'; turn: number; text: string }
  | {
      type: 'tool-call-started';
      turn: number;
      callId: string;
      tool: string;
      arguments: string;
      /** How the call is shown (e.g. `server › tool` and redacted arguments of an MCP call). */
      label?: ToolCallLabel;
    }
  | {
      type: 'tool-call-finished';
      turn: number;
      callId: string;
      tool: string;
      arguments: string;
      label?: ToolCallLabel;
      status: ToolCallStatus;
      durationMs: number;
      /** What the model sees (the long-output preview). */
      preview: string;
      storedAt?: string;
    }
  | {
      type: 'call-finished';
      turn: number;
      call: number;
      outputTokens: number;
      /** The call's record as the history file keeps it (provider usage, cost, budget...). */
      record: CallRecord;
      costSoFar: number;
      /** As context-prepared's. */
      otherModelUnits?: ModelUnits[];
    }
  /**
   * The call is repeated. Text streamed for this turn so far belonged to the failed attempt: the UI
   * should clear it (the retried call streams the turn's text again). `filtered`: sent through retry-filter.
   */
  | { type: 'retry'; turn: number; attempt: number; reason: string; delayMs: number; filtered: boolean }
  /** A summarizer call (summary, hybrid) was billed. */
  | { type: 'summary-call'; record: SummaryCallRecord; costSoFar: number; otherModelUnits?: ModelUnits[] }
  | { type: 'budget'; event: BudgetEvent }
  | { type: 'error'; turn: number; error: ProviderErrorInfo }
  /** Something went wrong that the run works around (a failed summary: the call goes ahead without it). */
  | { type: 'warning'; turn: number; message: string }
  /** `limit`: with max-turns, the model calls one message may make (the panel names the setting). */
  | { type: 'done'; reason: 'completed' | 'max-turns'; turns: number; limit?: number }
  /** `setAside`: the person's message alone was over the window and was not sent (set-aside.ts), no failure. */
  | { type: 'stopped'; reason: 'aborted' | 'budget' | 'error'; turns: number; message: string; setAside?: true };

export type AgentEventListener = (event: AgentEvent) => void;
