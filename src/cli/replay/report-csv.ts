// The replay report as CSV, for spreadsheets: the JSON report's strategy figures, one row per scope and strategy.
import { printable } from '../../core/trajectories';
import { recordedVsRawRatio, sameCalls, type RecordedReport } from './recorded';
import { round, type ReplayReport, type StrategyReport } from './report';

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
 * The last columns say which cache model billed the row (`mixed` in a total over logs billed differently)
 * and, per trajectory, why.
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
      'cacheModel',
      'cacheModelBasis',
    ].join(','),
  ];
  const add = (scope: string, name: string, s: StrategyReport) =>
    rows.push(
      [
        scope,
        name,
        ...CSV_FIELDS.map((f) => s[f] ?? ''),
        r.tokenizer,
        '',
        '',
        '',
        s.cacheModel,
        s.cacheModelBasis ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  const addRecorded = (scope: string, rec: RecordedReport) =>
    rows.push(
      [
        scope,
        'recorded',
        rec.trajectories,
        rec.calls,
        rec.inputTokens,
        csvRatio(recordedVsRawRatio(rec)),
        // Recorded cost units, only as the table shows them: one model's, over this row's own calls.
        rec.costUnits !== undefined && sameCalls(rec) ? rec.costUnits : '',
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
        // What the provider billed: no cache model of replay's.
        '',
        '',
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
