// The replay result as data: the documented JSON shape (report-table.ts and report-csv.ts print it).
import type { Skipped } from '../../core/trajectories';
import type { StrategyTotals } from '../../core/replay/replay';
import { agreementByFormat, recordedOf, type AgreementReport, type RecordedReport } from './recorded';
import type { StrategyRun, TrajectoryWarning } from './run';
import { byFormat, type FormatReport } from './by-format';
import type { CacheModel, CacheModelChoice } from '../../core/replay/cache-model';
import { compareText } from '../../core/numbers';

export interface StrategyReport {
  trajectories: number;
  calls: number;
  inputTokens: number;
  /** Null when either side is a lower bound (media not counted): the ratio of two lower bounds is unknown. */
  ratioToRaw: number | null;
  cost: number;
  costRatioToRaw: number | null;
  peakContextTokens: number;
  cachedTokens: number;
  maskedObservations: number;
  summaryCalls: number;
  /** True when summary sizes came from the fixed-size stand-in (estimates, no model called). */
  summaryEstimated: boolean;
  /** Media parts (images, audio, files) whose tokens are not counted. */
  uncountedMedia: number;
  /** True when uncountedMedia > 0: tokens, cost, cached tokens and the peak are lower bounds, not exact. */
  lowerBound: boolean;
  /** The prompt cache these calls were billed with; `mixed` when the trajectories pooled here differ. */
  cacheModel: CacheModel | 'mixed';
  /** Per trajectory only: why that cache (`--cache-model ...`, `model NAME`, `format FORMAT (...)`). */
  cacheModelBasis?: string;
}

export interface ReplayReport {
  tokenizer: string;
  /** False for chars4: every number is an estimate. */
  tokenizerExact: boolean;
  trajectories: number;
  calls: number;
  skipped: Skipped[];
  options: {
    window: number;
    polling: number;
    cachedPrice: number;
    cacheWritePrice: number;
    contextWindow: number;
    includeOutput: boolean;
    /** Output relative to uncached input, when output is included. */
    outputPrice?: number;
    /** A shared prefix shorter than this was billed uncached. */
    minCachedTokens: number;
    /** The cache model asked for (--cache-model). */
    cacheModel: CacheModelChoice;
  };
  /** Trajectories billed with each prompt-cache model (auto picks one per log: by its model, else its format). */
  cacheModels: Partial<Record<CacheModel, number>>;
  /** Trajectories auto billed with the prefix cache by their format: their logs name no model of a known family. */
  prefixByFormat: number;
  strategies: Record<string, StrategyReport>;
  /** What the providers recorded in the logs, beside raw replay over the same calls (when any log recorded usage). */
  recorded?: RecordedReport;
  /** Raw replay against recorded prompt sizes, per log format. */
  agreement: Record<string, AgreementReport>;
  /** The runs of each log format and each strategy's ratio over them: what the totals pool. */
  formats: Record<string, FormatReport>;
  notes: string[];
  /** Skipped files counted by the kind of reason. */
  skippedGroups: { group: string; files: number }[];
  /** What importers read differently or dropped, per trajectory. */
  warnings: TrajectoryWarning[];
  /** Records skipped by design (kinds a newer version of a tool writes). */
  ignoredRecords: number;
  /** Only with --per-trajectory: trajectory id -> strategy -> figures. */
  perTrajectory?: Record<string, Record<string, StrategyReport>>;
  /** Only with --per-trajectory: trajectory id -> recorded figures, for trajectories that recorded usage. */
  recordedPerTrajectory?: Record<string, RecordedReport>;
}

const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? 1 : Infinity) : a / b);
export const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The one cache model that billed these replays, or `mixed`. */
function cacheModelOf(replays: StrategyRun['replays']): CacheModel | 'mixed' {
  const models = new Set(replays.map((r) => r.cacheModel));
  return models.size === 1 ? [...models][0]! : 'mixed';
}

function strategyReport(
  t: StrategyTotals,
  raw: StrategyTotals,
  cache: Pick<StrategyReport, 'cacheModel' | 'cacheModelBasis'>,
): StrategyReport {
  const bounded = t.uncountedMedia > 0 || raw.uncountedMedia > 0;
  return {
    trajectories: t.trajectories,
    calls: t.calls,
    inputTokens: t.inputTokens,
    ratioToRaw: bounded ? null : round(ratio(t.inputTokens, raw.inputTokens), 4),
    cost: round(t.cost, 2),
    costRatioToRaw: bounded ? null : round(ratio(t.cost, raw.cost), 4),
    peakContextTokens: t.peakContextTokens,
    cachedTokens: t.cachedTokens,
    maskedObservations: t.maskedObservations,
    summaryCalls: t.summaryCalls,
    summaryEstimated: t.summaryEstimated,
    uncountedMedia: t.uncountedMedia,
    lowerBound: t.uncountedMedia > 0,
    ...cache,
  };
}

export function buildReport(
  runs: readonly StrategyRun[],
  meta: {
    tokenizer: string;
    exact: boolean;
    skipped: Skipped[];
    options: ReplayReport['options'];
    perTrajectory: boolean;
    warnings?: TrajectoryWarning[];
    ignoredRecords?: number;
  },
  aggregateOne: (r: StrategyRun['replays'][number]) => StrategyTotals,
): ReplayReport {
  const raw = runs.find((r) => r.strategy === 'raw');
  if (!raw) throw new Error('raw must be replayed: it is the baseline of every ratio');
  const strategies: Record<string, StrategyReport> = {};
  const notes: string[] = [];
  for (const r of runs) {
    strategies[r.strategy] = strategyReport(r.totals, raw.totals, { cacheModel: cacheModelOf(r.replays) });
    for (const n of r.totals.notes) if (!notes.includes(n)) notes.push(n);
  }
  const report: ReplayReport = {
    tokenizer: meta.tokenizer,
    tokenizerExact: meta.exact,
    trajectories: raw.totals.trajectories,
    calls: raw.totals.calls,
    skipped: meta.skipped,
    options: meta.options,
    cacheModels: countCacheModels(raw.replays),
    prefixByFormat: raw.replays.filter((r) => r.cacheModel === 'prefix' && r.cacheModelBasis.startsWith('format '))
      .length,
    strategies,
    agreement: agreementByFormat(raw.replays),
    formats: byFormat(runs),
    notes,
    skippedGroups: groupSkipped(meta.skipped),
    warnings: meta.warnings ?? [],
    ignoredRecords: meta.ignoredRecords ?? 0,
  };
  const recorded = recordedOf(raw.replays);
  if (recorded) report.recorded = recorded;
  if (meta.perTrajectory) {
    const per: Record<string, Record<string, StrategyReport>> = {};
    raw.replays.forEach((rawReplay, i) => {
      const rawTotals = aggregateOne(rawReplay);
      const row: Record<string, StrategyReport> = {};
      for (const r of runs) {
        const one = r.replays[i]!;
        row[r.strategy] = strategyReport(aggregateOne(one), rawTotals, {
          cacheModel: one.cacheModel,
          cacheModelBasis: one.cacheModelBasis,
        });
      }
      // Two files may share an id (same instance, two formats): keep both.
      let key = rawReplay.trajectoryId;
      for (let k = 2; key in per; k++) key = `${rawReplay.trajectoryId}#${k}`;
      per[key] = row;
      const rec = recordedOf([rawReplay]);
      if (rec) (report.recordedPerTrajectory ??= {})[key] = rec;
    });
    report.perTrajectory = per;
  }
  return report;
}

function countCacheModels(replays: StrategyRun['replays']): Partial<Record<CacheModel, number>> {
  const counts: Partial<Record<CacheModel, number>> = {};
  for (const r of replays) counts[r.cacheModel] = (counts[r.cacheModel] ?? 0) + 1;
  return counts;
}

/** Skipped files counted per reason group, the largest group first. */
export function groupSkipped(skipped: readonly Skipped[]): { group: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.group, (counts.get(s.group) ?? 0) + 1);
  return [...counts]
    .map(([group, files]) => ({ group, files }))
    .sort((a, b) => b.files - a.files || compareText(a.group, b.group));
}
