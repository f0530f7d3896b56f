// Small pieces of the loop kept apart: call records and their event, masked-observation details for
// the UI, output counting, and racing a promise against Stop.
import type { ApprovalPort } from '../budget';
import type { Message } from '../messages';
import type { ContextResult } from '../strategies/types';
import type { CallAccountant, PreparedBill } from './accounting';
import type { AgentEvent, MaskedObservation } from './events';
import type { ChatResult, ProviderUsage } from './provider';
import type { ModelUnits } from './model-units';
import type { CallRecord, ReportedUsage } from './session-state';

/** The summarizer's budget request was refused. */
export class BudgetStop extends Error {}

/** The promise's value, or undefined as soon as the signal fires (Stop while approval is pending). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The port, answering "no" as soon as the run's signal fires: the budget never waits on a dead prompt. */
export function stoppable(port: ApprovalPort, signal: () => AbortSignal): ApprovalPort {
  return {
    requestApproval: async (request) => (await untilAborted(port.requestApproval(request), signal())) ?? false,
  };
}

export function maskedObservations(view: ContextResult, history: readonly Message[]): MaskedObservation[] {
  return view.masked.map((m) => {
    const original = history[m.index];
    return {
      index: m.index,
      lines: m.lines,
      ...(original?.toolCallId ? { toolCallId: original.toolCallId } : {}),
      ...(original?.name ? { tool: original.name } : {}),
      ...(m.storedAt ? { storedAt: m.storedAt } : {}),
    };
  });
}

/** Output tokens of an answer, counted by us when the provider did not report them. */
export function countOutput(accountant: CallAccountant, result: ChatResult): number {
  const m: Message = { role: 'assistant', content: result.text };
  if (result.toolCalls.length > 0) m.toolCalls = result.toolCalls;
  return accountant.countOutput(m);
}

/** How a call's input was billed: from the provider's usage, our own count, or not at all. */
export interface BilledInput {
  inputCost: number;
  by: 'provider' | 'estimate' | 'none';
}

/** The record's fields that describe the call (the caller adds who, what and where). */
export function callRecord(
  base: Pick<CallRecord, 'turn' | 'call' | 'retry' | 'at' | 'sentAt'>,
  bill: PreparedBill,
  billed: BilledInput,
  output: { tokens: number; cost: number },
  usage: ProviderUsage | undefined,
): CallRecord {
  const reported: ReportedUsage = {};
  for (const k of ['inputTokens', 'cachedTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens'] as const)
    if (usage?.[k] !== undefined) reported[k] = usage[k];
  return {
    ...base,
    tokensSent: bill.tokensSent,
    parts: bill.parts,
    rawHistoryTokens: bill.rawHistoryTokens,
    ...cacheFigures(bill, billed.by === 'provider' ? usage : undefined),
    outputTokens: output.tokens,
    cost: billed.inputCost + output.cost,
    billedBy: billed.by,
    ...(Object.keys(reported).length > 0 ? { usage: reported } : {}),
  };
}

export function callFinished(r: CallRecord, costSoFar: number, otherModelUnits?: ModelUnits[]): AgentEvent {
  return {
    type: 'call-finished',
    turn: r.turn,
    call: r.call,
    outputTokens: r.outputTokens,
    record: r,
    costSoFar,
    ...(otherModelUnits !== undefined ? { otherModelUnits: otherModelUnits.map((m) => ({ ...m })) } : {}),
  };
}

/**
 * The call's cache reads and writes: the provider's when it billed the call (what it served from its
 * cache; a figure it left out is none), else our estimate (the shared prefix; the rest written).
 */
function cacheFigures(
  bill: PreparedBill,
  usage: ProviderUsage | undefined,
): Pick<CallRecord, 'cachedTokens' | 'cacheWriteTokens'> {
  if (usage?.inputTokens === undefined)
    return { cachedTokens: bill.cachedTokens, cacheWriteTokens: bill.tokensSent - bill.cachedTokens };
  const cached = Math.min(usage.cachedTokens ?? 0, usage.inputTokens);
  return { cachedTokens: cached, cacheWriteTokens: usage.cacheWriteTokens ?? usage.inputTokens - cached };
}
