// The `recorded` row: what the providers reported in the logs (prompt sizes, cached tokens, money)
// beside what replay computed for raw history over the same calls, overall, per format and per file.
// The agreement (computed raw / recorded) is how a user sees that replay's numbers are real: replay
// counts with another tokenizer and without the system prompt and tool definitions that many logs omit,
// so it is usually a little under 1.
import { roundDecimal } from '../../protocol/money';
import { aggregateRecorded, type RecordedTotals, type TrajectoryReplay } from '../../core/replay/replay';
import { compareText } from '../../core/numbers';

/** Recorded totals as reported: money rounded (null when none was recorded), raw's side and the agreement. */
export type RecordedReport = Omit<
  RecordedTotals,
  'cost' | 'computedInputTokens' | 'outputTokens' | 'costCalls' | 'costTrajectories'
> & {
  /** Recorded output tokens, or null when no call recorded its output (not 0: the output was not logged). */
  outputTokens: number | null;
  /** Money recorded in the logs (US dollars, to 6 decimals), or null when none was. */
  costUsd: number | null;
  /** The calls and trajectories costUsd covers: its own scope, not `calls` (money and prompt sizes are logged apart). */
  costCalls: number;
  costTrajectories: number;
  /** Raw replay's context tokens over the same calls. */
  rawInputTokens: number;
  /**
   * rawInputTokens / inputTokens (1 = replay counted exactly what was billed); null when no prompt size was
   * recorded, or when media were not counted (uncountedMedia > 0: raw's side is a lower bound).
   */
  agreement: number | null;
};

export interface AgreementReport {
  trajectories: number;
  calls: number;
  recordedInputTokens: number;
  rawInputTokens: number;
  /** Null when media were not counted in these logs (uncountedMedia > 0): raw's side is a lower bound. */
  agreement: number | null;
  uncountedMedia: number;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Raw / recorded, or null when there is nothing to compare or raw's count is only a lower bound. */
function agreementOf(t: RecordedTotals): number | null {
  return t.inputTokens === 0 || t.uncountedMedia > 0 ? null : round(t.computedInputTokens / t.inputTokens, 4);
}

export function recordedReport(t: RecordedTotals): RecordedReport {
  return {
    trajectories: t.trajectories,
    calls: t.calls,
    inputTokens: t.inputTokens,
    cachedTokens: t.cachedTokens,
    cacheWriteTokens: t.cacheWriteTokens,
    outputTokens: t.outputCalls === 0 ? null : t.outputTokens,
    outputCalls: t.outputCalls,
    peakContextTokens: t.peakContextTokens,
    ...(t.sentTokens !== undefined ? { sentTokens: t.sentTokens } : {}),
    ...(t.costUnits !== undefined ? { costUnits: round(t.costUnits, 2) } : {}),
    ...(t.summaryCalls !== undefined ? { summaryCalls: t.summaryCalls } : {}),
    ...(t.costUnitsByModel !== undefined
      ? { costUnitsByModel: t.costUnitsByModel.map((m) => ({ ...m, units: round(m.units, 2) })) }
      : {}),
    ...(t.recordCalls !== undefined ? { recordCalls: t.recordCalls } : {}),
    ...(t.recordCallsWithPrompt !== undefined ? { recordCallsWithPrompt: t.recordCallsWithPrompt } : {}),
    costUsd: t.cost === undefined ? null : roundDecimal(t.cost, 6),
    costCalls: t.costCalls,
    costTrajectories: t.costTrajectories,
    rawInputTokens: t.computedInputTokens,
    uncountedMedia: t.uncountedMedia,
    // A run that recorded only money has nothing to agree with, one with uncounted media only a lower
    // bound to compare: no figure then, never a wrong one.
    agreement: agreementOf(t),
  };
}

/** Recorded totals of raw replays, or undefined when no call recorded a prompt size or money. */
export function recordedOf(raw: readonly TrajectoryReplay[]): RecordedReport | undefined {
  const t = aggregateRecorded(raw);
  return t.calls > 0 || t.cost !== undefined || t.sentTokens !== undefined ? recordedReport(t) : undefined;
}

/** Agreement per format, for the formats whose logs record prompt sizes. */
export function agreementByFormat(raw: readonly TrajectoryReplay[]): Record<string, AgreementReport> {
  const byFormat = new Map<string, TrajectoryReplay[]>();
  for (const r of raw) byFormat.set(r.format, [...(byFormat.get(r.format) ?? []), r]);
  const out: Record<string, AgreementReport> = {};
  for (const [format, list] of [...byFormat].sort((a, b) => compareText(a[0], b[0]))) {
    const t = aggregateRecorded(list);
    if (t.calls === 0) continue;
    out[format] = {
      trajectories: t.trajectories,
      calls: t.calls,
      recordedInputTokens: t.inputTokens,
      rawInputTokens: t.computedInputTokens,
      agreement: agreementOf(t),
      uncountedMedia: t.uncountedMedia,
    };
  }
  return out;
}

/** True when Context Desk's records cover exactly the calls whose prompt size was recorded, and no summarizer call. */
export function sameCalls(rec: RecordedReport): boolean {
  const n = rec.recordCalls ?? 0;
  return !rec.summaryCalls && n === rec.calls && (rec.recordCallsWithPrompt ?? 0) === n;
}

/**
 * Recorded / raw prompt tokens from the counts themselves (1 / the rounded agreement can be off in its last
 * digit); none when raw counted nothing or is a lower bound (media not counted).
 */
export function recordedVsRawRatio(rec: RecordedReport): number | null {
  return rec.rawInputTokens === 0 || rec.uncountedMedia > 0 ? null : rec.inputTokens / rec.rawInputTokens;
}
