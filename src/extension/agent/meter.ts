// The context meter's figures from call records: the totals a resumed session shows, the plot's points,
// and what the provider reported for a call. Pure: the chat model and the resume path share it.
import { callTotals, type CallLog } from '../../core/agent/call-log';
import type { CallRecord } from '../../core/agent/session-state';
import type { MoneyPrice } from '../../core/cost/pricing';
import type { CallPoint, ContextMeter } from '../../protocol/chat';

export type Totals = NonNullable<ContextMeter['totals']>;

export const NO_TOTALS: Totals = {
  tokensSent: 0,
  cachedTokens: 0,
  outputTokens: 0,
  reportedCalls: 0,
  reportedInputTokens: 0,
  reportedCachedTokens: 0,
};

/** The meter after a session's recorded calls: what a resumed session shows before its next call. */
export function meterFromLog(base: ContextMeter, log: Pick<CallLog, 'calls' | 'summaryCalls'>): ContextMeter {
  const t = callTotals(log);
  const last = log.calls[log.calls.length - 1];
  const { costUsd: _u, price: _p, reported: _r, summaryUnits: _s, otherModelUnits: _o, ...rest } = base;
  return {
    ...rest,
    calls: t.calls,
    costUnits: t.costUnits,
    ...(t.costUsd !== undefined ? { costUsd: t.costUsd } : {}),
    ...(t.summaryUnits !== undefined ? { summaryUnits: t.summaryUnits } : {}),
    ...(t.otherModelUnits !== undefined ? { otherModelUnits: t.otherModelUnits } : {}),
    ...(last?.money ? { price: priceOf(last.money) } : {}),
    totals: {
      tokensSent: t.tokensSent,
      cachedTokens: t.cachedTokens,
      outputTokens: t.outputTokens,
      reportedCalls: t.reportedCalls,
      reportedInputTokens: t.reportedInputTokens,
      reportedCachedTokens: t.reportedCachedTokens,
    },
    ...(last
      ? {
          tokensInWindow: last.tokensSent,
          rawHistoryTokens: last.rawHistoryTokens,
          cachedTokens: last.cachedTokens,
          ...(last.masked ? { maskedObservations: last.masked.count, maskedStored: last.masked.stored } : {}),
          ...(reportedOf(last) ? { reported: reportedOf(last)! } : {}),
          ...(last.budget?.limit ? { budget: budgetOfRecord(last.budget) } : {}),
        }
      : {}),
  };
}

/** The plot's points from the recorded calls. */
export function seriesFromLog(calls: readonly CallRecord[]): CallPoint[] {
  return calls.map((r) => ({ call: r.call, sent: r.tokensSent, raw: r.rawHistoryTokens, cached: r.cachedTokens }));
}

export function priceOf(m: MoneyPrice): NonNullable<ContextMeter['price']> {
  return { model: m.model, source: m.source, ...(m.asOf ? { asOf: m.asOf } : {}) };
}

export function reportedOf(r: CallRecord): ContextMeter['reported'] {
  const u = r.usage;
  if (u?.inputTokens === undefined) return undefined;
  return {
    inputTokens: u.inputTokens,
    ...(u.cachedTokens !== undefined ? { cachedTokens: u.cachedTokens } : {}),
    ...(u.cacheWriteTokens !== undefined ? { cacheWriteTokens: u.cacheWriteTokens } : {}),
    ...(u.outputTokens !== undefined ? { outputTokens: u.outputTokens } : {}),
    ...(u.reasoningTokens !== undefined ? { reasoningTokens: u.reasoningTokens } : {}),
  };
}

/** The meter's budget line from what a record says the session budget had counted after the call. */
export function budgetOfRecord(b: NonNullable<CallRecord['budget']>): NonNullable<ContextMeter['budget']> {
  const limit = b.limit ?? 0;
  const used = b.spentTokens;
  return {
    state: used > limit ? 'exceeded' : used >= 0.8 * limit ? 'warning' : 'ok',
    usedPercent: limit > 0 ? (used / limit) * 100 : 0,
    limit,
  };
}
