// Token budgets at three levels (session, task, agent), each hard (refuse), soft (warn) or approval
// (pause and ask). Shapes shared with the UI, which renders the events.

export type BudgetLevel = 'session' | 'task' | 'agent';
export type BudgetMode = 'hard' | 'soft' | 'approval';

export interface BudgetLimit {
  /** Tokens allowed at this level (per task id for `task`, per agent id for `agent`). */
  limit: number;
  mode: BudgetMode;
}

/** From `at` (a fraction of the limit) on, every spend waits `delayMs` first. */
export interface BackpressureStep {
  at: number;
  delayMs: number;
}

export const DEFAULT_WARNING_AT = 0.8;
export const DEFAULT_BACKPRESSURE: readonly BackpressureStep[] = [
  { at: 0.8, delayMs: 50 },
  { at: 0.85, delayMs: 300 },
  { at: 0.9, delayMs: 750 },
  { at: 0.95, delayMs: 1500 },
];

export interface SpendRequest {
  tokens: number;
  /**
   * Of `tokens`, those already spent and asked for late (a model call's output is known only after it, so
   * the next call asks for it): approval prompts and events show them as used, not as this spend's need.
   */
  spent?: number;
  /**
   * Tokens that must be left after the spend for its answer: an approval limit that would leave fewer asks
   * first (granted unasked, the answer would be cut at once, or pass the limit).
   */
  reserve?: number;
  taskId?: string;
  agentId?: string;
  /** Shown to the user when approval is asked (e.g. "model call 12 of task X"). */
  reason?: string;
}

/** Which budget an event or a refusal is about: `id` is the task or agent id (absent for the session). */
export interface BudgetScope {
  level: BudgetLevel;
  id?: string;
}

export interface ApprovalRequest extends BudgetScope {
  used: number;
  requested: number;
  limit: number;
  reason?: string;
}

/** The UI side of approval mode: resolves true to let the spend through once, false to refuse it. */
export interface ApprovalPort {
  requestApproval(request: ApprovalRequest): Promise<boolean>;
}

interface EventBase extends BudgetScope {
  /** Clock time of the event. */
  at: number;
  used: number;
  limit: number;
}

export type BudgetEvent =
  | (EventBase & { type: 'warning'; ratio: number })
  | (EventBase & { type: 'backpressure'; ratio: number; delayMs: number })
  | (EventBase & { type: 'exceeded'; requested: number; mode: BudgetMode; refused: boolean })
  | (EventBase & { type: 'approval-requested'; requested: number; reason?: string })
  | (EventBase & { type: 'approval-granted'; requested: number })
  | (EventBase & { type: 'approval-denied'; requested: number });

/**
 * What the limits that apply to a granted spend leave after it: the tightest one, its tokens and mode. An
 * approval limit counts until a person approved passing it: below it, nothing may pass it unasked.
 */
export interface BudgetRoom extends BudgetScope {
  tokens: number;
  mode: 'hard' | 'approval';
}

export type SpendDecision =
  /** `room` is absent when no hard or unapproved approval limit applies: a call's output is then capped by none. */
  | { allowed: true; delayedMs: number; room?: BudgetRoom }
  | { allowed: false; scope: BudgetScope; reason: 'hard-limit' | 'approval-denied' | 'no-approver' };

export interface BudgetUsage extends BudgetScope {
  used: number;
  limit?: number;
  mode?: BudgetMode;
}
