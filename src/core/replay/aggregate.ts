// Totals over many replays of one strategy.
import type { TrajectoryReplay } from './replay';

export interface StrategyTotals {
  trajectories: number;
  calls: number;
  /** Summed over every call (context plus summarizer input). */
  inputTokens: number;
  /** Context tokens summed over every call (without summarizer input). */
  contextTokens: number;
  cost: number;
  cachedTokens: number;
  peakContextTokens: number;
  /** Observations masked by the end of each trajectory (the most at any call), summed. */
  maskedObservations: number;
  summaryCalls: number;
  summaryInputTokens: number;
  summaryOutputTokens: number;
  outputTokens: number;
  summaryEstimated: boolean;
  notes: string[];
}

export function aggregate(results: readonly TrajectoryReplay[]): StrategyTotals {
  const totals: StrategyTotals = {
    trajectories: results.length,
    calls: 0,
    inputTokens: 0,
    contextTokens: 0,
    cost: 0,
    cachedTokens: 0,
    peakContextTokens: 0,
    maskedObservations: 0,
    summaryCalls: 0,
    summaryInputTokens: 0,
    summaryOutputTokens: 0,
    outputTokens: 0,
    summaryEstimated: false,
    notes: [],
  };
  for (const r of results) {
    let masked = 0;
    for (const c of r.calls) {
      totals.calls++;
      totals.inputTokens += c.inputTokens;
      totals.contextTokens += c.contextTokens;
      totals.cost += c.cost;
      totals.cachedTokens += c.cachedTokens;
      totals.peakContextTokens = Math.max(totals.peakContextTokens, c.contextTokens);
      masked = Math.max(masked, c.maskedObservations);
      totals.summaryCalls += c.summaryCalls;
      totals.summaryInputTokens += c.summaryInputTokens;
      totals.summaryOutputTokens += c.summaryOutputTokens;
      totals.outputTokens += c.outputTokens;
    }
    totals.maskedObservations += masked;
    if (r.summaryEstimated) totals.summaryEstimated = true;
    for (const n of r.notes) if (!totals.notes.includes(n)) totals.notes.push(n);
  }
  return totals;
}
