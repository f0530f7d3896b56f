// One model call with its retries. The context is built once: a transient failure resends it as it was;
// after a context overflow or an invalid tool call it goes through retry filtering with a note.
import type { Message } from '../messages';
import type { ContextResult, ContextStrategy } from '../strategies/types';
import type { AgentEvent } from './events';
import type { BudgetCut, ModelCaller } from './model-call';
import type { ChatResult } from './provider';
import { invalidToolCallNote, planRetry, type RetryCounts, type RetryPolicy } from './retry-policy';
import type { CallRecord } from './session-state';
import { replyEnd } from './stop-reason';
import type { AbortableSleep } from './sleep';
import type { ToolRegistry } from './tool-registry';

export type CallOutcome =
  /** `budgetCut`: the budget's output limit cut the answer (model-call.ts). */
  | { ok: true; result: ChatResult; budgetCut?: BudgetCut }
  | { ok: false; reason: 'aborted' | 'budget' | 'error'; message: string; partialText?: string; setAside?: true };

export interface RetryLoopDeps {
  caller: ModelCaller;
  retryFilter: ContextStrategy;
  policy: RetryPolicy;
  tools: ToolRegistry;
  /** The session's call records (the caller appends one per attempt that reached accounting). */
  calls: readonly CallRecord[];
  emit: (event: AgentEvent) => void;
  sleep: AbortableSleep;
  /** Every attempt's record; `kept` when its answer is the one the session goes on with. */
  onRecord: (record: CallRecord, kept: boolean) => void;
}

export interface RetryLoopCall {
  turn: number;
  view: ContextResult;
  history: Message[];
  signal: AbortSignal;
}

export async function callWithRetries(d: RetryLoopDeps, c: RetryLoopCall): Promise<CallOutcome> {
  const aborted = { ok: false, reason: 'aborted', message: 'Stopped by the user' } as const;
  const specs = d.tools.specs();
  let note: string | undefined; // set once retry filtering applies: the corrective note
  const tried: RetryCounts = { transient: 0, unreachable: 0, overflow: 0 };
  let invalid = 0;
  for (let attempt = 0; ; attempt++) {
    const sent =
      note === undefined
        ? c.view.messages
        : (await d.retryFilter.build(c.view.messages, { retry: true, note })).messages;
    const recorded = d.calls.length;
    const outcome = await d.caller.attempt({
      turn: c.turn,
      sent,
      history: c.history,
      view: c.view,
      specs,
      retry: attempt > 0,
      filtered: note !== undefined,
      signal: c.signal,
    });
    const record = d.calls.length > recorded ? d.calls[d.calls.length - 1] : undefined;
    const kept = outcome.type === 'ok' && keeps(d, outcome.result, invalid);
    if (record) d.onRecord(record, kept);
    if (outcome.type === 'stopped') {
      const { reason, message, partialText } = outcome;
      return { ok: false, reason, message, ...(partialText !== undefined ? { partialText } : {}) };
    }
    let reason: string;
    let delayMs = 0;
    if (outcome.type === 'failed') {
      const error = outcome.error;
      d.emit({ type: 'error', turn: c.turn, error: error.toInfo() });
      const plan = planRetry(error, tried, d.policy);
      // Given up: what the panel shows of the last attempt stays in the conversation (as for a Stop).
      if (!plan) {
        const { partialText } = outcome;
        return {
          ok: false,
          reason: 'error',
          message: error.message,
          ...(partialText !== undefined ? { partialText } : {}),
        };
      }
      tried[plan.counts]++;
      note = plan.filterNote ?? note;
      reason = error.kind;
      delayMs = plan.delayMs;
    } else {
      if (kept)
        return { ok: true, result: outcome.result, ...(outcome.budgetCut ? { budgetCut: outcome.budgetCut } : {}) };
      const bad = badCalls(d.tools, outcome.result);
      invalid++;
      note = invalidToolCallNote(bad.map((b) => `${b.kind} ${JSON.stringify(b.name.slice(0, 60))}`));
      reason = `invalid tool call (${bad.map((b) => b.kind).join(', ')})`;
    }
    d.emit({ type: 'retry', turn: c.turn, attempt: attempt + 1, reason, delayMs, filtered: note !== undefined });
    try {
      if (delayMs > 0) await d.sleep(delayMs, c.signal);
    } catch {
      return aborted;
    }
    if (c.signal.aborted) return aborted;
  }
}

/** Tool calls the registry cannot run (unknown tool, unparsable arguments): the call is asked again. */
function badCalls(tools: ToolRegistry, result: ChatResult): { kind: string; name: string }[] {
  return result.toolCalls.flatMap((call) => {
    const checked = tools.check(call);
    // Arguments that break the schema are answered with the error instead (the model fixes them).
    return checked.ok || checked.kind === 'invalid-arguments' ? [] : [{ kind: checked.kind, name: call.name }];
  });
}

/**
 * True when an answer is taken as it is: no invalid tool call, no retries left for one, or a reply cut at
 * the output limit (the same request would be cut again: the session tells the model to write less).
 */
function keeps(d: RetryLoopDeps, result: ChatResult, invalid: number): boolean {
  return (
    replyEnd(result.finishReason) === 'output-limit' ||
    badCalls(d.tools, result).length === 0 ||
    invalid >= d.policy.maxInvalidToolCallRetries
  );
}
