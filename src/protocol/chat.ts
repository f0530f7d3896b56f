// The Agent panel's chat view model: plain data the host builds from the agent's events and the webview
// renders. The host owns it; the webview only displays it and sends requests back.

export type ChatStatus = 'idle' | 'running' | 'completed' | 'max-turns' | 'aborted' | 'budget' | 'error';

export type ToolCallState = 'running' | 'ok' | 'error' | 'invalid' | 'cancelled';

export interface ChatToolCall {
  callId: string;
  tool: string;
  /** Arguments as the model sent them (JSON text). */
  arguments: string;
  state: ToolCallState;
  durationMs?: number;
  /** What the model saw (a head/tail preview for long outputs). */
  preview?: string;
  /** Workspace-relative path of the file holding the full output. */
  storedAt?: string;
  /** True once the strategy has masked this observation in what is sent to the model. */
  masked?: boolean;
  /** Lines the placeholder says were omitted, when masked. */
  maskedLines?: number;
  /** What the call does, beside the tool name (e.g. `github › create_issue` for `mcp_call`). */
  title?: string;
}

export type ChatItem =
  | { kind: 'user'; id: string; text: string; at: number }
  | {
      kind: 'assistant';
      id: string;
      turn: number;
      /** Markdown, growing while it streams. */
      text: string;
      streaming: boolean;
      tools: ChatToolCall[];
    }
  | { kind: 'notice'; id: string; level: 'info' | 'warning' | 'error'; text: string; action?: NoticeAction };

/** A button on a notice that runs one allow-listed host action. */
export interface NoticeAction {
  label: string;
  action: 'configure' | 'showLog' | 'retry' | 'openTranscript';
}

export interface ContextMeter {
  /** Tokens of the last request sent. */
  tokensInWindow: number;
  /** The model's context window. */
  contextWindow: number;
  /** Tokens of the last request that the provider's prompt cache could serve (our prefix model). */
  cachedTokens: number;
  /** What raw history would have sent on the last call. */
  rawHistoryTokens: number;
  /** Spent so far in uncached-input-token units. */
  costUnits: number;
  /** The same in money, when the model's price is known. */
  costUsd?: number;
  calls: number;
  maskedObservations: number;
  /** True when counts are the chars/4 estimate. */
  estimated: boolean;
  budget?: {
    state: 'ok' | 'warning' | 'backpressure' | 'awaiting-approval' | 'exceeded';
    usedPercent: number;
    limit: number;
  };
}

/** One point of the per-call plot: tokens sent against what raw history would have sent. */
export interface CallPoint {
  call: number;
  sent: number;
  raw: number;
  cached: number;
}

export interface ApprovalRequest {
  id: string;
  kind: 'command' | 'edit' | 'budget' | 'mcp';
  title: string;
  /** The command line, the diff summary, the budget numbers, or the MCP call's arguments. */
  detail: string;
  /** For `mcp`: which server and tool, and the arguments as pretty JSON (secrets redacted). */
  mcp?: { server: string; tool: string; arguments: string; readOnlyHint: boolean };
  /** Offer a third answer that also approves later calls, with this label (e.g. "Always allow github › create_issue"). */
  alwaysLabel?: string;
}

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  turns: number;
}

export interface ChatSnapshot {
  sessionId: string;
  status: ChatStatus;
  strategy: string;
  strategies: string[];
  /** `provider/model` label, or undefined when no model is configured. */
  model?: string;
  models: string[];
  /** Why the agent cannot run yet and what to do (no model configured, no API key, ...). */
  setupHint?: string;
  items: ChatItem[];
  meter: ContextMeter;
  series: CallPoint[];
  approval?: ApprovalRequest;
  pastSessions: SessionSummary[];
}

/** Incremental changes; the webview applies them in order to its last snapshot. */
export type ChatPatch =
  | { op: 'upsertItem'; item: ChatItem }
  | { op: 'appendText'; id: string; text: string }
  | { op: 'status'; status: ChatStatus }
  | { op: 'meter'; meter: ContextMeter }
  | { op: 'point'; point: CallPoint }
  | { op: 'masked'; callIds: string[]; lines: Record<string, number> }
  | { op: 'approval'; approval: ApprovalRequest | undefined }
  | { op: 'pastSessions'; sessions: SessionSummary[] }
  /** The models the picker offers (e.g. VS Code's language models, once listed). */
  | { op: 'models'; models: string[] };
