// The Agent panel's chat view model: plain data the host builds from the agent's events and the webview
// renders. The host owns it; the webview only displays it and sends requests back.

/** `not-sent`: the run stopped before any call because the person's message alone was over the window. */
export type ChatStatus = 'idle' | 'running' | 'completed' | 'max-turns' | 'aborted' | 'budget' | 'error' | 'not-sent';

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
  /** Lines of the observation the model saw before it was masked (the placeholder's count). */
  maskedLines?: number;
  /** What the call does, beside the tool name (e.g. `github › create_issue` for `mcp_call`). */
  title?: string;
  /** What the model sees instead, once masked (the one-line placeholder). */
  placeholder?: string;
  /** Lines of the full output (the stored file's, when the output was stored), when known. */
  outputLines?: number;
  /** Stored, yet the model saw it whole (a short output is kept in a file only for masking to name it). */
  shownWhole?: boolean;
}

export type ChatItem =
  | {
      kind: 'user';
      id: string;
      text: string;
      at: number;
      /**
       * Set aside, never sent: alone the message is over the model's window, so the session took it out
       * of the conversation (core/agent/set-aside.ts). The panel shows it as not sent, its text still there.
       */
      notSent?: boolean;
    }
  | {
      kind: 'assistant';
      id: string;
      turn: number;
      /** Markdown, growing while it streams. */
      text: string;
      streaming: boolean;
      tools: ChatToolCall[];
    }
  | {
      kind: 'notice';
      id: string;
      level: 'info' | 'warning' | 'error';
      text: string;
      action?: NoticeAction;
      /** Removed when the next run starts (errors of a run are about that run). */
      transient?: boolean;
    };

/** A button on a notice that runs one allow-listed host action. */
export interface NoticeAction {
  label: string;
  action: 'configure' | 'showLog' | 'retry' | 'openTranscript' | 'useDemo' | 'maxTurnsSetting';
}

/** One model's cost units, in that model's own units (one unit: one of its uncached input tokens). */
export interface ModelUnits {
  model: string;
  units: number;
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
  /** Spent so far in cost units: input-token equivalents (one uncached input token = 1). */
  costUnits: number;
  /** The same in US$, when the model's price is known (the sum of the calls' recorded money). */
  costUsd?: number;
  /**
   * Units of a separate summary model's calls, per summary model in its own units, when its price or the
   * agent model's is unknown: not in `costUnits` (the units differ), never added to each other, and shown
   * beside them by name.
   */
  summaryUnits?: ModelUnits[];
  /**
   * Units of calls made with models the conversation used before, one entry per model in its own units
   * (its uncached input token): not in `costUnits`, never added to each other, and shown beside them by
   * name when no money total is known.
   */
  otherModelUnits?: ModelUnits[];
  /** The price entry the money comes from (table key, the user's setting or the dated default table). */
  price?: { model: string; source: 'default' | 'setting'; asOf?: string };
  calls: number;
  /**
   * Sums over the session's model calls: what the call records in the history file add up to
   * (`context-desk replay` recomputes them). `reported*`: what the provider reported, over the calls it did.
   */
  totals?: {
    tokensSent: number;
    cachedTokens: number;
    outputTokens: number;
    reportedCalls: number;
    reportedInputTokens: number;
    reportedCachedTokens: number;
  };
  /** What the provider reported for the last call (absent: it reported nothing, e.g. vscode.lm). */
  reported?: {
    inputTokens: number;
    cachedTokens?: number;
    cacheWriteTokens?: number;
    outputTokens?: number;
    /** Of `outputTokens`, the model's reasoning: billed as output, not sent back (not in the context). */
    reasoningTokens?: number;
  };
  maskedObservations: number;
  /** How many of the masked observations have their full text in a file (the others are masked, not stored). */
  maskedStored?: number;
  /** True when counts are the chars/4 estimate. */
  estimated: boolean;
  budget?: {
    /**
     * `refused`: a hard limit refused the next call (the budget itself is not passed); `exceeded`: the
     * tokens spent are over the limit (soft mode, or an approved overrun).
     */
    state: 'ok' | 'warning' | 'backpressure' | 'awaiting-approval' | 'refused' | 'exceeded';
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
  /**
   * Its place among the requests asked together ("2 of 3": one answered, one more waits); absent when it
   * is the only one.
   */
  place?: { at: number; of: number };
}

export interface SessionSummary {
  id: string;
  /** The session's first instruction (one line, shortened), or a date when it has none. */
  title: string;
  createdAt: number;
  /** Last written to. */
  updatedAt?: number;
  /** The agent's answers and actions (assistant messages). */
  turns: number;
  /**
   * True when this workspace's Context Desk did not write the file (it came with the repository or from
   * another machine): its "user" messages are not known to be the user's. Resuming asks first.
   */
  foreign?: boolean;
  /**
   * True when this workspace wrote the file as the continuation of a foreign session: its earlier
   * messages were copied from a file it did not write (resuming shows their hidden characters).
   */
  continued?: boolean;
  /** Model calls and cost, from the call records of the history file (absent in files without them). */
  calls?: number;
  costUnits?: number;
  /** A separate summary model's units, in its own units: not in `costUnits` (see ContextMeter.summaryUnits). */
  summaryUnits?: ModelUnits[];
  /** Earlier models' units, per model: not in `costUnits` (see ContextMeter.otherModelUnits). */
  otherModelUnits?: ModelUnits[];
  costUsd?: number;
}

/** The providers the setup form offers. */
export type ProviderChoice = 'demo' | 'openai-compatible' | 'anthropic' | 'vscode-lm';

/** Where the agent stands: which provider, and what is missing before it can run. */
export interface SetupSummary {
  provider: ProviderChoice;
  /** True when a message can be sent (a model is configured). */
  ready: boolean;
  /** The endpoint the agent talks to, for the labels ("Ollama at http://..."); absent for demo and vscode-lm. */
  endpoint?: string;
  /** What to do before the agent can run. */
  hint?: string;
}

export interface ChatSnapshot {
  sessionId: string;
  status: ChatStatus;
  strategy: string;
  strategies: string[];
  /** `provider/model` label, or undefined when no model is configured. */
  model?: string;
  models: string[];
  /** The provider and, when the agent cannot run yet, what to do (no model configured, ...). */
  setup: SetupSummary;
  /** One quiet line about what the run is doing now (a retry, a wait); replaced, never piled up. */
  activity?: string;
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
  | { op: 'masked'; callIds: string[]; lines: Record<string, number>; placeholders?: Record<string, string> }
  | { op: 'approval'; approval: ApprovalRequest | undefined }
  | { op: 'pastSessions'; sessions: SessionSummary[] }
  | { op: 'activity'; text: string | undefined }
  | { op: 'removeItems'; ids: string[] }
  /** The person's message `id` was set aside (see `notSent`): the panel may put its text back in an empty box. */
  | { op: 'notSent'; id: string }
  /** The models the picker offers (e.g. VS Code's language models, once listed). */
  | { op: 'models'; models: string[] };
