// The replay report as the table the terminal shows: one row per strategy (and the logs' own figures),
// per log format and, with --per-trajectory, per trajectory; then what the figures mean and what was left out.
import { printable } from '../../core/trajectories';
import { recordedVsRawRatio, sameCalls, type RecordedReport } from './recorded';
import { formatUsd } from '../../protocol/money';
import { formatLines } from './by-format';
import type { ReplayReport, StrategyReport } from './report';
import { formatCount } from '../../core/numbers';

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
  return formatCount(n);
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

/** Recorded cost units: one total when they are one model's, else each model's apart, by name. */
function recordedUnitsText(rec: RecordedReport): string {
  if (rec.costUnits !== undefined) return `, ${fmt(Math.round(rec.costUnits))} cost units recomputed from the records`;
  const list = rec.costUnitsByModel;
  if (!list?.length) return '';
  const shown = list.slice(0, NAMED_MODELS).map((m) => `${fmt(Math.round(m.units))} of ${modelName(m)}`);
  const more = list.length - shown.length;
  return (
    `, cost units recomputed from the records per model: ${shown.join(', ')}${more > 0 ? ` and ${fmt(more)} more (see --format json)` : ''}` +
    " (not added: each model's unit is its own uncached input token)"
  );
}

function modelName(m: NonNullable<RecordedReport['costUnitsByModel']>[number]): string {
  return m.model === null ? `model not recorded (${printable(m.trajectory ?? '', 80)})` : printable(m.model, 80);
}

/** Models named one by one in the table; the JSON report has them all. */
const NAMED_MODELS = 8;

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
        recordedUnitsText(rec) +
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

const CACHE_MODEL_TEXT = {
  prefix: 'prefix (any prefix shared with the previous call is read from the cache, as OpenAI and Gemini do)',
  anthropic: "anthropic (reads only where our Anthropic provider's breakpoints wrote, at most 20 blocks back)",
} as const;

/** Which prompt cache the calls were billed with, and how many trajectories each. */
function cacheModelLine(r: ReplayReport): string {
  const used = (['prefix', 'anthropic'] as const).filter((m) => (r.cacheModels[m] ?? 0) > 0);
  const counted = used
    .map((m) => `${CACHE_MODEL_TEXT[m]}: ${fmt(r.cacheModels[m]!)} trajector${r.cacheModels[m] === 1 ? 'y' : 'ies'}`)
    .join('; ');
  const how =
    r.options.cacheModel === 'auto'
      ? ' (--cache-model auto: by the model each log names, anthropic for Claude; where none is named, anthropic for Claude Code and Anthropic request logs)'
      : '';
  const n = r.prefixByFormat;
  const hint =
    r.options.cacheModel === 'auto' && n > 0
      ? ` ${fmt(n)} trajector${n === 1 ? 'y names' : 'ies name'} no model of a known family and got prefix by format: if ${n === 1 ? 'it ran' : 'they ran'} on Claude, give --cache-model anthropic (prefix overstates Anthropic's cache reads).`
      : '';
  const write =
    used.includes('anthropic') && r.options.cacheWritePrice < 1.25
      ? ` Anthropic bills cache writes at 1.25x input (5-minute cache), not ${r.options.cacheWritePrice}: give --cache-write-price 1.25 for its prices.`
      : '';
  return `Cache model${how}: ${counted}.${hint}${write}`;
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
    cacheModelLine(r),
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
