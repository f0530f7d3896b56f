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
  /** Media parts not counted (each run's own): when above 0 every token and cost figure is a lower bound. */
  uncountedMedia: number;
  notes: string[];
}

/** Each run carries the media it sent (a file's runs their own), so runs are told apart, not files. */
const mediaKey = (r: TrajectoryReplay): string => `${r.uncountedMedia!.file}\0${r.trajectoryId}`;

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
    uncountedMedia: 0,
    notes: [],
  };
  const mediaFiles = new Map<string, number>();
  for (const r of results) {
    if (r.uncountedMedia) mediaFiles.set(mediaKey(r), r.uncountedMedia.parts);
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
  for (const n of mediaFiles.values()) totals.uncountedMedia += n;
  return totals;
}

/** What providers recorded, summed, beside what raw replay computed for the same calls. */
export interface RecordedTotals {
  /** Trajectories with at least one call whose prompt size was recorded. */
  trajectories: number;
  /** Calls whose prompt size was recorded. */
  calls: number;
  /** Recorded prompt tokens (uncached + cache reads + cache writes), summed over those calls. */
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Recorded output tokens, summed over the calls above that recorded them (`outputCalls`). */
  outputTokens: number;
  /** Calls above whose output was recorded: none when no response was logged complete (Claude Code 2.1 streams). */
  outputCalls: number;
  /** The largest recorded prompt. */
  peakContextTokens: number;
  /** Money recorded (US dollars): per call where logged, else the run's total; undefined when none was. */
  cost?: number;
  /**
   * The calls `cost` covers: those with money of their own, or every call of a run that logged only its
   * total. Not the calls above (a SWE-agent run records money but no prompt sizes), so said with its own count.
   */
  costCalls: number;
  /** Trajectories that recorded money. */
  costTrajectories: number;
  /** Raw replay's context tokens over the same calls: `computedInputTokens / inputTokens` is the agreement. */
  computedInputTokens: number;
  /**
   * Media parts not counted in the trajectories above (each file once): above 0, computedInputTokens is a
   * lower bound and the agreement is unknown.
   */
  uncountedMedia: number;
  /** Context Desk's records: tokens the agent counted as sent, summed over every call that has a record. */
  sentTokens?: number;
  /**
   * Context Desk's records: cost in units (model and summarizer calls), recomputed from the records, when
   * they are all one model's units; absent when they are several models' (see costUnitsByModel).
   */
  costUnits?: number;
  /**
   * The same per model, in the order first read: each model's unit is its own uncached input token, so
   * units of two models are never added. `model` null: a run whose records never name their model (one
   * entry per such run, `trajectory`: they may be different models).
   */
  costUnitsByModel?: RecordedModelUnits[];
  /** Summarizer calls recorded beside the model calls. */
  summaryCalls?: number;
  /** Context Desk's records: model calls with a record (the scope of sentTokens and costUnits). */
  recordCalls?: number;
  /** Of those, the calls whose prompt size was recorded too: when it equals both counts, the scopes are one. */
  recordCallsWithPrompt?: number;
}

export interface RecordedModelUnits {
  model: string | null;
  units: number;
  trajectory?: string;
}

/** Recorded cost units grouped by the model whose units they are (see RecordedTotals.costUnitsByModel). */
class UnitsByModel {
  private readonly byKey = new Map<string, RecordedModelUnits>();

  /** A run's units: a record without a model is in the run's model (its last record that names one). */
  addRun(r: TrajectoryReplay): void {
    const runModel = r.calls.findLast((c) => c.recorded?.costModel !== undefined)?.recorded?.costModel;
    const add = (model: string | undefined, units: number): void => {
      const m = model ?? runModel;
      const key = m !== undefined ? `model:${m}` : `run:${r.trajectoryId}`;
      const entry = this.byKey.get(key);
      if (entry) entry.units += units;
      else
        this.byKey.set(key, m !== undefined ? { model: m, units } : { model: null, units, trajectory: r.trajectoryId });
    };
    for (const c of r.calls) if (c.recorded?.costUnits !== undefined) add(c.recorded.costModel, c.recorded.costUnits);
    for (const e of r.recordedSummaries?.units ?? []) add(e.model, e.units);
  }

  /** The total when every unit is one model's; the entries otherwise (none when no record had units). */
  apply(t: RecordedTotals): void {
    if (this.byKey.size === 0) return;
    const list = [...this.byKey.values()];
    t.costUnitsByModel = list;
    if (list.length === 1) t.costUnits = list[0]!.units;
  }
}

/** Sums the recorded usage of raw replays (recorded figures do not depend on the strategy). */
export function aggregateRecorded(raw: readonly TrajectoryReplay[]): RecordedTotals {
  const t: RecordedTotals = {
    trajectories: 0,
    calls: 0,
    inputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    outputCalls: 0,
    peakContextTokens: 0,
    computedInputTokens: 0,
    uncountedMedia: 0,
    costCalls: 0,
    costTrajectories: 0,
  };
  let cost: number | undefined;
  const units = new UnitsByModel();
  const mediaFiles = new Map<string, number>();
  for (const r of raw) {
    let any = false;
    let callCost: number | undefined;
    let callsWithCost = 0;
    for (const c of r.calls) {
      const u = c.recorded;
      if (u?.cost !== undefined) {
        callCost = (callCost ?? 0) + u.cost;
        callsWithCost++;
      }
      if (u?.sentTokens !== undefined) t.sentTokens = (t.sentTokens ?? 0) + u.sentTokens;
      if (u?.sentTokens !== undefined || u?.costUnits !== undefined) {
        t.recordCalls = (t.recordCalls ?? 0) + 1;
        if (u.inputTokens !== undefined) t.recordCallsWithPrompt = (t.recordCallsWithPrompt ?? 0) + 1;
      }
      if (u?.inputTokens === undefined) continue;
      // Output is printed over these calls (those whose prompt size was recorded): summed over them only.
      if (u.outputTokens !== undefined) {
        t.outputTokens += u.outputTokens;
        t.outputCalls++;
      }
      any = true;
      t.calls++;
      t.inputTokens += u.inputTokens;
      t.cachedTokens += u.cachedTokens ?? 0;
      t.cacheWriteTokens += u.cacheWriteTokens ?? 0;
      t.peakContextTokens = Math.max(t.peakContextTokens, u.inputTokens);
      t.computedInputTokens += c.contextTokens;
    }
    units.addRun(r);
    const s = r.recordedSummaries;
    if (s) {
      t.summaryCalls = (t.summaryCalls ?? 0) + s.calls;
      if (s.cost !== undefined) callCost = (callCost ?? 0) + s.cost;
    }
    if (any) t.trajectories++;
    if (any && r.uncountedMedia) mediaFiles.set(mediaKey(r), r.uncountedMedia.parts);
    const runCost = callCost ?? r.recordedCost;
    if (runCost !== undefined) {
      cost = (cost ?? 0) + runCost;
      t.costTrajectories++;
      t.costCalls += callCost !== undefined ? callsWithCost : r.calls.length;
    }
  }
  if (cost !== undefined) t.cost = cost;
  units.apply(t);
  for (const n of mediaFiles.values()) t.uncountedMedia += n;
  return t;
}
