// Decides whether a spend of tokens may go ahead, across the session, its task and its agent.
// Requests are serialized: a check and its record happen with nothing in between, so concurrent callers
// (several agents, a pending approval) can never push a hard budget past its limit together.
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import { backpressureDelay, validateSteps } from './backpressure';
import {
  DEFAULT_BACKPRESSURE,
  DEFAULT_WARNING_AT,
  type ApprovalPort,
  type BackpressureStep,
  type BudgetEvent,
  type BudgetLevel,
  type BudgetLimit,
  type BudgetMode,
  type BudgetRoom,
  type BudgetScope,
  type BudgetUsage,
  type SpendDecision,
  type SpendRequest,
} from './types';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BudgetOptions {
  session?: BudgetLimit;
  /** Applies to each task id separately. */
  task?: BudgetLimit;
  /** Applies to each agent id separately. */
  agent?: BudgetLimit;
  warningAt?: number;
  backpressure?: readonly BackpressureStep[];
  clock?: Clock;
  sleep?: Sleep;
  approval?: ApprovalPort;
  onEvent?: (event: BudgetEvent) => void;
  /** Tokens the session spent before this budget took over (a conversation that goes on). */
  sessionUsed?: number;
}

export type BudgetLimits = Pick<BudgetOptions, 'session' | 'task' | 'agent'>;

interface Account extends BudgetScope {
  used: number;
  rule?: BudgetLimit;
}

function checkLimit(name: BudgetLevel, l: BudgetLimit | undefined): void {
  if (l && (!(l.limit >= 0) || !Number.isFinite(l.limit)))
    throw new RangeError(`${name} budget must be >= 0 tokens, got ${l.limit}`);
}

function checkLimits(l: BudgetLimits): BudgetLimits {
  checkLimit('session', l.session);
  checkLimit('task', l.task);
  checkLimit('agent', l.agent);
  return {
    ...(l.session ? { session: l.session } : {}),
    ...(l.task ? { task: l.task } : {}),
    ...(l.agent ? { agent: l.agent } : {}),
  };
}

export class TokenBudget {
  private readonly session: Account;
  private readonly accounts = new Map<string, Account>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly warningAt: number;
  private readonly steps: readonly BackpressureStep[];
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private limits: BudgetLimits;

  constructor(private readonly options: BudgetOptions = {}) {
    this.limits = checkLimits(options);
    this.warningAt = options.warningAt ?? DEFAULT_WARNING_AT;
    this.steps = options.backpressure ?? DEFAULT_BACKPRESSURE;
    validateSteps(this.steps);
    this.clock = options.clock ?? systemClock;
    this.sleep = options.sleep ?? realSleep;
    const used = options.sessionUsed ?? 0;
    if (!(used >= 0) || !Number.isFinite(used)) throw new RangeError(`sessionUsed must be >= 0, got ${used}`);
    this.session = { level: 'session', used, rule: options.session };
  }

  /** New limits (settings changed): tokens spent so far count against them from the next request on. */
  setLimits(limits: BudgetLimits): Promise<void> {
    const checked = checkLimits(limits);
    return this.serialized(() => {
      this.limits = checked;
      this.session.rule = checked.session;
      for (const a of this.accounts.values()) a.rule = checked[a.level as 'task' | 'agent'];
    });
  }

  /** True when a limit of `mode` applies at any level (a task or agent limit, to each id). */
  applies(mode: BudgetMode): boolean {
    return [this.limits.session, this.limits.task, this.limits.agent].some((l) => l?.mode === mode);
  }

  /** Gives back a spend that did not happen: the call never reached a server, or it failed unbilled. */
  refund(spend: SpendRequest): Promise<void> {
    return this.serialized(() => {
      for (const a of this.accountsOf(spend)) a.used = Math.max(0, a.used - spend.tokens);
    });
  }

  private serialized(f: () => void): Promise<void> {
    const next = this.queue.then(f);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private accountsOf(spend: SpendRequest): Account[] {
    const accounts = [this.session];
    if (spend.taskId !== undefined) accounts.push(this.account('task', spend.taskId));
    if (spend.agentId !== undefined) accounts.push(this.account('agent', spend.agentId));
    return accounts;
  }

  /** Asks to spend `tokens`; resolves once any backpressure delay or approval is over. */
  request(spend: SpendRequest): Promise<SpendDecision> {
    if (!(spend.tokens >= 0) || !Number.isFinite(spend.tokens)) {
      return Promise.reject(new RangeError(`tokens must be a finite number >= 0, got ${spend.tokens}`));
    }
    const next = this.queue.then(() => this.decide(spend));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Current usage of every account seen so far (session first). */
  usage(): BudgetUsage[] {
    return [this.session, ...this.accounts.values()].map((a) => ({
      level: a.level,
      ...(a.id !== undefined ? { id: a.id } : {}),
      used: a.used,
      ...(a.rule ? { limit: a.rule.limit, mode: a.rule.mode } : {}),
    }));
  }

  private account(level: 'task' | 'agent', id: string): Account {
    const key = `${level}\u0000${id}`;
    let a = this.accounts.get(key);
    if (!a) {
      a = { level, id, used: 0, rule: this.limits[level] };
      this.accounts.set(key, a);
    }
    return a;
  }

  private emit(event: BudgetEvent): void {
    this.options.onEvent?.(event);
  }

  private base(a: Account): { level: BudgetLevel; id?: string; at: number; used: number; limit: number } {
    return {
      level: a.level,
      ...(a.id !== undefined ? { id: a.id } : {}),
      at: this.clock.now(),
      used: a.used,
      limit: a.rule!.limit,
    };
  }

  private async decide(spend: SpendRequest): Promise<SpendDecision> {
    const accounts = this.accountsOf(spend);
    const reserve = spend.reserve! > 0 && Number.isFinite(spend.reserve) ? spend.reserve! : 0;
    const need = (a: Account): number => spend.tokens + (a.rule?.mode === 'approval' ? reserve : 0);
    const over = accounts.filter((a) => a.rule && a.used + need(a) > a.rule.limit);
    const scope = (a: Account): BudgetScope => ({ level: a.level, ...(a.id !== undefined ? { id: a.id } : {}) });
    // What a person is shown before the grant: tokens spent late count as used, the rest is the request.
    const late = spend.spent! > 0 && Number.isFinite(spend.spent) ? Math.min(spend.tokens, spend.spent!) : 0;
    const requested = spend.tokens - late;
    const shown = (a: Account): ReturnType<TokenBudget['base']> => ({ ...this.base(a), used: a.used + late });

    // Hard limits first: never ask a person to approve what will be refused anyway.
    for (const a of over) {
      if (a.rule!.mode !== 'hard') continue;
      this.emit({ ...shown(a), type: 'exceeded', requested, mode: 'hard', refused: true });
      return { allowed: false, scope: scope(a), reason: 'hard-limit' };
    }
    for (const a of over) {
      if (a.rule!.mode !== 'approval') continue;
      const base = shown(a);
      this.emit({ ...base, type: 'exceeded', requested, mode: 'approval', refused: false });
      const approver = this.options.approval;
      if (!approver) {
        this.emit({ ...base, type: 'approval-denied', requested });
        return { allowed: false, scope: scope(a), reason: 'no-approver' };
      }
      this.emit({
        ...base,
        type: 'approval-requested',
        requested,
        ...(spend.reason ? { reason: spend.reason } : {}),
      });
      const { at: _at, ...rest } = base;
      const ok = await approver.requestApproval({
        ...rest,
        requested,
        ...(spend.reason ? { reason: spend.reason } : {}),
      });
      this.emit({ ...shown(a), type: ok ? 'approval-granted' : 'approval-denied', requested });
      if (!ok) return { allowed: false, scope: scope(a), reason: 'approval-denied' };
    }
    for (const a of over) {
      if (a.rule!.mode === 'soft')
        this.emit({ ...shown(a), type: 'exceeded', requested, mode: 'soft', refused: false });
    }

    // Backpressure from the fullest budget after this spend.
    let worst: Account | undefined;
    let ratio = 0;
    for (const a of accounts) {
      if (!a.rule) continue;
      const r = a.rule.limit === 0 ? (spend.tokens > 0 ? Infinity : 0) : (a.used + spend.tokens) / a.rule.limit;
      if (r > ratio) [ratio, worst] = [r, a];
    }
    const delayMs = worst ? backpressureDelay(ratio, this.steps) : 0;
    if (worst && delayMs > 0) {
      this.emit({ ...this.base(worst), type: 'backpressure', ratio, delayMs });
      await this.sleep(delayMs);
    }

    let room: BudgetRoom | undefined;
    for (const a of accounts) {
      const before = a.used;
      a.used += spend.tokens;
      if (a.rule && a.rule.limit > 0) {
        const mark = this.warningAt * a.rule.limit;
        if (before < mark && a.used >= mark)
          this.emit({ ...this.base(a), type: 'warning', ratio: a.used / a.rule.limit });
      }
      // Told with the grant, in the same step: a caller caps the call's output at it (model-call.ts). An
      // approval limit this spend was not approved past caps it too: its answer must not pass it unasked.
      const mode = a.rule?.mode;
      const capped = mode === 'hard' || (mode === 'approval' && !over.includes(a));
      if (capped && (room === undefined || a.rule!.limit - a.used < room.tokens))
        room = { ...scope(a), tokens: Math.max(0, a.rule!.limit - a.used), mode };
    }
    return { allowed: true, delayedMs: delayMs, ...(room ? { room } : {}) };
  }
}
