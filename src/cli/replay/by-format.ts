// Replay's figures per log format. A folder may mix formats (mini-swe-agent and SWE-agent runs, Claude
// Code sessions beside Codex rollouts); the totals pool them, weighted by each format's tokens, so a
// strategy's ratio over the folder can be one format's ratio in disguise. This says what was pooled.
import { aggregate, type StrategyTotals } from '../../core/replay/aggregate';
import type { StrategyRun } from './run';
import { formatCount, compareText } from '../../core/numbers';

export interface FormatReport {
  trajectories: number;
  calls: number;
  /** Raw replay's input tokens over this format's runs (a lower bound when `uncountedMedia` > 0). */
  rawInputTokens: number;
  /** Media parts of this format's runs whose tokens are not counted. */
  uncountedMedia: number;
  /** Each strategy's input tokens / raw's over these runs; null when media were not counted (lower bounds). */
  ratioToRaw: Record<string, number | null>;
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;

function ratio(t: StrategyTotals, raw: StrategyTotals): number | null {
  if (t.uncountedMedia > 0 || raw.uncountedMedia > 0) return null;
  if (raw.inputTokens === 0) return t.inputTokens === 0 ? 1 : null;
  return round4(t.inputTokens / raw.inputTokens);
}

/** Per format, in name order. Every strategy's replays are in the same order as raw's (one per trajectory). */
export function byFormat(runs: readonly StrategyRun[]): Record<string, FormatReport> {
  const raw = runs.find((r) => r.strategy === 'raw');
  if (!raw) return {};
  const indices = new Map<string, number[]>();
  raw.replays.forEach((r, i) => indices.set(r.format, [...(indices.get(r.format) ?? []), i]));
  const out: Record<string, FormatReport> = {};
  for (const [format, at] of [...indices].sort((a, b) => compareText(a[0], b[0]))) {
    const rawTotals = aggregate(at.map((i) => raw.replays[i]!));
    const ratios: Record<string, number | null> = {};
    for (const r of runs)
      if (r.strategy !== 'raw') ratios[r.strategy] = ratio(aggregate(at.map((i) => r.replays[i]!)), rawTotals);
    out[format] = {
      trajectories: rawTotals.trajectories,
      calls: rawTotals.calls,
      rawInputTokens: rawTotals.inputTokens,
      uncountedMedia: rawTotals.uncountedMedia,
      ratioToRaw: ratios,
    };
  }
  return out;
}

/** The table's lines for a folder that mixed formats; none for one format (the totals are its figures). */
export function formatLines(formats: Record<string, FormatReport>, strategies: readonly string[]): string[][] {
  const entries = Object.entries(formats);
  if (entries.length < 2) return [];
  const fmt = (n: number) => formatCount(n);
  return entries.map(([format, f]) => [
    format,
    fmt(f.trajectories),
    fmt(f.calls),
    (f.uncountedMedia > 0 ? '≥ ' : '') + fmt(f.rawInputTokens),
    ...strategies.map((s) => {
      const r = f.ratioToRaw[s];
      return r === null || r === undefined ? '-' : r.toFixed(3);
    }),
  ]);
}
