// The replay result as data (the documented JSON shape) and as a table or CSV.
import { printable, type Skipped } from '../../core/trajectories';
import type { StrategyTotals } from '../../core/replay/replay';
import {
  agreementByFormat,
  recordedOf,
  recordedVsRawRatio,
  sameCalls,
  type AgreementReport,
  type RecordedReport,
} from './recorded';
import type { StrategyRun, TrajectoryWarning } from './run';
import { formatUsd } from '../../protocol/money';
import { byFormat, formatLines, type FormatReport } from './by-format';

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
  };
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
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function strategyReport(t: StrategyTotals, raw: StrategyTotals): StrategyReport {
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
    strategies[r.strategy] = strategyReport(r.totals, raw.totals);
    for (const n of r.totals.notes) if (!notes.includes(n)) notes.push(n);
  }
  const report: ReplayReport = {
    tokenizer: meta.tokenizer,
    tokenizerExact: meta.exact,
    trajectories: raw.totals.trajectories,
    calls: raw.totals.calls,
    skipped: meta.skipped,
    options: meta.options,
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
      for (const r of runs) row[r.strategy] = strategyReport(aggregateOne(r.replays[i]!), rawTotals);
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

/** Skipped files counted per reason group, the largest group first. */
export function groupSkipped(skipped: readonly Skipped[]): { group: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.group, (counts.get(s.group) ?? 0) + 1);
  return [...counts]
    .map(([group, files]) => ({ group, files }))
    .sort((a, b) => b.files - a.files || a.group.localeCompare(b.group));
}

// A lower bound is never printed as an exact figure: it reads `≥ 1,234`, and a ratio of lower bounds `-`.
const atLeast = (s: StrategyReport, n: number) => (s.lowerBound ? '≥ ' : '') + fmt(n);
const ratioCell = (r: number | null) => (r === null ? '-' : r.toFixed(3));

const COLUMNS: [string, (s: StrategyReport) => string][] = [
  ['trajectories', (s) => fmt(s.trajectories)],
  ['calls', (s) => fmt(s.calls)],
  ['input tokens', (s) => atLeast(s, s.inputTokens)],
  ['vs raw', (s) => ratioCell(s.ratioToRaw)],
  ['cost units', (s) => atLeast(s, Math.round(s.cost))],
  ['cost vs raw', (s) => ratioCell(s.costRatioToRaw)],
  ['cached tokens', (s) => atLeast(s, s.cachedTokens)],
  ['peak context', (s) => atLeast(s, s.peakContextTokens)],
  ['masked obs.', (s) => fmt(s.maskedObservations)],
  ['summary calls', (s) => fmt(s.summaryCalls) + (s.summaryEstimated && s.summaryCalls > 0 ? '*' : '')],
];

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function grid(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => rows.reduce((w, r) => Math.max(w, r[c]!.length), h.length));
  const line = (cells: string[]) =>
    cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const recordedVsRaw = (rec: RecordedReport) => ratioCell(recordedVsRawRatio(rec));

/** The `recorded` row: provider figures; `vs raw` is recorded / raw over the calls that recorded usage. */
function recordedRow(rec: RecordedReport): string[] {
  const cells: Record<string, string> = {
    trajectories: fmt(rec.trajectories),
    calls: fmt(rec.calls),
    'input tokens': fmt(rec.inputTokens),
    'vs raw': recordedVsRaw(rec),
    'cached tokens': fmt(rec.cachedTokens),
    'peak context': fmt(rec.peakContextTokens),
    // Cost units cover every call with a record (and summarizer calls): on this row only when those are its calls.
    ...(rec.costUnits !== undefined && sameCalls(rec) ? { 'cost units': fmt(Math.round(rec.costUnits)) } : {}),
  };
  return ['recorded', ...COLUMNS.map((c) => cells[c[0]] ?? '-')];
}

/** Recorded output: said as not recorded when no call logged it (Claude Code 2.1 logs none complete), never as 0. */
function outputNote(rec: RecordedReport): string {
  if (rec.outputTokens === null) return 'output tokens not recorded';
  const all = rec.outputCalls >= rec.calls;
  return `${fmt(rec.outputTokens)} output tokens` + (all ? '' : ` recorded by ${fmt(rec.outputCalls)} of these calls`);
}

function recordedLines(r: ReplayReport): string[] {
  const rec = r.recorded!;
  const lines = [
    `recorded: the providers' own figures from the logs, over the ${fmt(rec.calls)} of ${fmt(r.calls)} calls whose prompt size was recorded` +
      ` (input = uncached + cache reads + cache writes; ${fmt(rec.cacheWriteTokens)} cache writes; ${outputNote(rec)}).`,
  ];
  // Money is logged apart from prompt sizes (a SWE-agent run records only its total), so it gets its own scope.
  if (rec.costUsd !== null)
    lines.push(
      `Recorded cost: ${formatUsd(rec.costUsd)} over the ${fmt(rec.costCalls)} calls of ${fmt(rec.costTrajectories)} ${rec.costTrajectories === 1 ? 'trajectory' : 'trajectories'} that recorded money (per call, or a run's total).`,
    );
  if (rec.sentTokens !== undefined)
    lines.push(
      `Context Desk's call records (${fmt(rec.recordCalls ?? 0)} model calls): ${fmt(rec.sentTokens)} tokens sent by the agent's own count` +
        (rec.costUnits !== undefined
          ? `, ${fmt(Math.round(rec.costUnits))} cost units recomputed from the records`
          : '') +
        (rec.summaryCalls ? ` (${fmt(rec.summaryCalls)} summarizer calls included)` : '') +
        '.',
    );
  const formats = Object.entries(r.agreement);
  if (formats.length > 0)
    lines.push(
      `Raw replay / recorded prompt tokens, by format: ${formats
        .map(
          ([f, a]) =>
            `${f} ${a.agreement === null ? '- (media not counted)' : a.agreement.toFixed(3)} (${fmt(a.trajectories)} trajectories, ${fmt(a.calls)} calls)`,
        )
        .join('; ')}. Under 1 where logs leave out system prompts and tool definitions or tokenizers differ.`,
    );
  return lines;
}

export function formatTable(r: ReplayReport): string {
  const o = r.options;
  const out = [
    `Tokenizer: ${r.tokenizer}${r.tokenizerExact ? '' : ' (ESTIMATE: chars/4, not a token count)'}  |  ${fmt(r.trajectories)} trajectories, ${fmt(r.calls)} model calls` +
      `  |  window ${o.window}, polling ${o.polling}, cached price ${o.cachedPrice} (prefixes from ${fmt(o.minCachedTokens)} tokens), cache write ${o.cacheWritePrice}` +
      (o.includeOutput ? `, output included at ${o.outputPrice ?? 1}x input` : ''),
    '',
    grid(
      ['strategy', ...COLUMNS.map((c) => c[0])],
      Object.entries(r.strategies).flatMap(([name, s]) => {
        const row = [name, ...COLUMNS.map((c) => c[1](s))];
        return name === 'raw' && r.recorded ? [row, recordedRow(r.recorded)] : [row];
      }),
    ),
  ];
  if (r.recorded) out.push('', ...recordedLines(r));
  const others = Object.keys(r.strategies).filter((s) => s !== 'raw');
  const byFormatRows = formatLines(r.formats, others);
  if (byFormatRows.length > 0)
    out.push(
      '',
      `By format: the totals above pool ${byFormatRows.length} log formats, each weighing as much as its tokens.`,
      grid(['format', 'trajectories', 'calls', 'raw input tokens', ...others.map((s) => `${s} vs raw`)], byFormatRows),
    );
  const media = r.strategies.raw?.uncountedMedia ?? 0;
  if (media > 0)
    out.push(
      '',
      `Not counted: ${fmt(media)} image${media === 1 ? '' : 's'} or other media part${media === 1 ? '' : 's'} whose tokens are unknown (counted as a one-word marker).` +
        ' Token and cost figures marked ≥ are lower bounds, and ratios between them are not given.' +
        // Raw / recorded would then read as a worse agreement than replay's counting has.
        ((r.recorded?.uncountedMedia ?? 0) > 0
          ? " Where such a log recorded its prompt sizes, raw's tokens are a lower bound and are not compared with the recorded prompt sizes (-)."
          : ''),
    );
  if (r.perTrajectory) {
    const rows: string[][] = [];
    for (const [key, per] of Object.entries(r.perTrajectory)) {
      const rec = r.recordedPerTrajectory?.[key];
      // Ids are file paths: a hostile name must not reach the terminal with its control characters.
      const id = printable(key, 10_000);
      for (const [name, s] of Object.entries(per)) {
        rows.push([
          id,
          name,
          fmt(s.calls),
          atLeast(s, s.inputTokens),
          ratioCell(s.ratioToRaw),
          atLeast(s, Math.round(s.cost)),
          ratioCell(s.costRatioToRaw),
          atLeast(s, s.peakContextTokens),
        ]);
        if (name === 'raw' && rec && rec.calls > 0)
          rows.push([
            id,
            'recorded',
            fmt(rec.calls),
            fmt(rec.inputTokens),
            recordedVsRaw(rec),
            '-',
            '-',
            fmt(rec.peakContextTokens),
          ]);
      }
    }
    out.push(
      '',
      'Per trajectory:',
      grid(
        ['trajectory', 'strategy', 'calls', 'input tokens', 'vs raw', 'cost units', 'cost vs raw', 'peak context'],
        rows,
      ),
    );
  }
  out.push(
    '',
    'Cost units: uncached-input-token equivalents (cached input at the cached price; output excluded unless --include-output, then at --output-price).',
  );
  if (Object.values(r.strategies).some((s) => s.summaryEstimated && s.summaryCalls > 0)) {
    out.push(
      '* summaries are a fixed-size stand-in (no model called): their sizes and costs are estimates, not summaries.',
    );
  }
  for (const n of r.notes) out.push(`Note: ${n}`);
  if (r.warnings.length > 0)
    out.push(`Warnings: ${r.warnings.length} about what was read differently or left out (see stderr).`);
  if (r.skipped.length > 0)
    out.push(
      `Skipped ${r.skipped.length} file(s): ${r.skippedGroups.map((g) => `${g.files} ${printable(g.group, 120)}`).join('; ')} (details on stderr).`,
    );
  return out.join('\n') + '\n';
}

const CSV_FIELDS: (keyof StrategyReport)[] = [
  'trajectories',
  'calls',
  'inputTokens',
  'ratioToRaw',
  'cost',
  'costRatioToRaw',
  'cachedTokens',
  'peakContextTokens',
  'maskedObservations',
  'summaryCalls',
  'summaryEstimated',
  'uncountedMedia',
  'lowerBound',
];

const csvRatio = (r: number | null) => (r === null ? '' : round(r, 4));

function csvCell(v: string | number | boolean): string {
  const s = typeof v === 'string' ? printable(v, 10_000) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One row per strategy with scope `total`; with --per-trajectory one more per trajectory and strategy.
 * A `recorded` row follows raw where logs recorded usage (`ratioToRaw` is recorded / raw there); its money
 * covers its own calls (`recordedCostCalls`), not the row's `calls` (those whose prompt size was recorded).
 */
export function formatCsv(r: ReplayReport): string {
  const rows = [
    [
      'scope',
      'strategy',
      ...CSV_FIELDS,
      'tokenizer',
      'recordedCostUsd',
      'recordedCostCalls',
      'recordedCostTrajectories',
    ].join(','),
  ];
  const add = (scope: string, name: string, s: StrategyReport) =>
    rows.push([scope, name, ...CSV_FIELDS.map((f) => s[f] ?? ''), r.tokenizer, '', '', ''].map(csvCell).join(','));
  const addRecorded = (scope: string, rec: RecordedReport) =>
    rows.push(
      [
        scope,
        'recorded',
        rec.trajectories,
        rec.calls,
        rec.inputTokens,
        csvRatio(recordedVsRawRatio(rec)),
        '',
        '',
        rec.cachedTokens,
        rec.peakContextTokens,
        '',
        '',
        '',
        '',
        '',
        r.tokenizer,
        rec.costUsd ?? '',
        rec.costUsd === null ? '' : rec.costCalls,
        rec.costUsd === null ? '' : rec.costTrajectories,
      ]
        .map(csvCell)
        .join(','),
    );
  for (const [name, s] of Object.entries(r.strategies)) {
    add('total', name, s);
    if (name === 'raw' && r.recorded) addRecorded('total', r.recorded);
  }
  for (const [id, per] of Object.entries(r.perTrajectory ?? {}))
    for (const [name, s] of Object.entries(per)) {
      add(id, name, s);
      const rec = r.recordedPerTrajectory?.[id];
      if (name === 'raw' && rec) addRecorded(id, rec);
    }
  return rows.join('\n') + '\n';
}
