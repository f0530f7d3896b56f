// Call records read back from a history file (`kind: 'call'` and `kind: 'summary-call'` lines). The file
// may come from anywhere (a cloned repository, a damaged disk): a record is taken only when every number
// it is billed by is a finite number >= 0, else it is counted as skipped. One reader for resume, the
// History list and replay, so they agree on what a file says.
import { inputUnits, type BilledInput } from '../cost/pricing';
import { reportedInput } from './accounting';
import { isCallLine } from '../store/history';
import { addModelUnits, modelUnitsList, type ModelUnits } from './model-units';
import type { CallRecord, SummaryCallRecord } from './session-state';

const count = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function prices(v: unknown): CallRecord['prices'] {
  const o = v as Record<string, unknown> | undefined;
  if (!o || !count(o.cachedPrice) || !count(o.cacheWritePrice) || !count(o.outputPrice)) return undefined;
  if (o.reportedWritePrice !== undefined && !count(o.reportedWritePrice)) return undefined;
  return {
    cachedPrice: o.cachedPrice,
    cacheWritePrice: o.cacheWritePrice,
    ...(o.reportedWritePrice !== undefined ? { reportedWritePrice: o.reportedWritePrice } : {}),
    outputPrice: o.outputPrice,
    // A long-context call's uncached input price (absent: 1).
    ...(count(o.inputPrice) ? { inputPrice: o.inputPrice } : {}),
  };
}

/** A record's `scaled` figures, when they are counts. */
function scaledOf(v: unknown): { scaled: { inputTokens: number; outputTokens: number } } | undefined {
  const o = v as Record<string, unknown> | null | undefined;
  if (!o || typeof o !== 'object' || !count(o.inputTokens) || !count(o.outputTokens)) return undefined;
  return { scaled: { inputTokens: o.inputTokens, outputTokens: o.outputTokens } };
}

/** A model call's record, checked; undefined when a figure it is billed by is missing or not a count. */
export function parseCallRecord(v: unknown): CallRecord | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  for (const k of ['turn', 'call', 'tokensSent', 'rawHistoryTokens', 'cachedTokens', 'outputTokens', 'cost', 'at'])
    if (!count(o[k])) return undefined;
  if (o.costUsd !== undefined && !count(o.costUsd)) return undefined;
  const usage = o.usage as Record<string, unknown> | undefined;
  if (usage !== undefined) {
    if (typeof usage !== 'object' || usage === null) return undefined;
    for (const k of ['inputTokens', 'cachedTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens'])
      if (usage[k] !== undefined && !count(usage[k])) return undefined;
  }
  if (o.scaled !== undefined && !scaledOf(o.scaled)) return undefined;
  const r = structuredClone(o) as unknown as CallRecord;
  r.retry = o.retry === true;
  if (o.sentAt !== undefined && !count(o.sentAt)) delete r.sentAt;
  const p = prices(o.prices);
  if (p) r.prices = p;
  else delete r.prices;
  return r;
}

export function parseSummaryCallRecord(v: unknown): SummaryCallRecord | undefined {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || !count(o.inputTokens) || !count(o.outputTokens) || !count(o.cost))
    return undefined;
  if (o.costUsd !== undefined && !count(o.costUsd)) return undefined;
  return {
    ...(typeof o.model === 'string' ? { model: o.model } : {}),
    ...(count(o.tokensSent) ? { tokensSent: o.tokensSent } : {}),
    ...(o.estimated === true ? { estimated: true as const } : {}),
    inputTokens: o.inputTokens,
    ...(count(o.cachedTokens) ? { cachedTokens: o.cachedTokens } : {}),
    ...(count(o.cacheWriteTokens) ? { cacheWriteTokens: o.cacheWriteTokens } : {}),
    outputTokens: o.outputTokens,
    cost: o.cost,
    ...(o.costUsd !== undefined ? { costUsd: o.costUsd as number } : {}),
    ...(typeof o.unitsOf === 'string' ? { unitsOf: o.unitsOf } : {}),
    ...(typeof o.agentModel === 'string' ? { agentModel: o.agentModel } : {}),
    ...(scaledOf(o.scaled) ?? {}),
    ...(count(o.at) ? { at: o.at } : {}),
    ...(count((o.budget as { spentTokens?: unknown } | undefined)?.spentTokens)
      ? { budget: { spentTokens: (o.budget as { spentTokens: number }).spentTokens } }
      : {}),
  };
}

export interface CallLog {
  calls: CallRecord[];
  summaryCalls: SummaryCallRecord[];
  /** Call lines that could not be read (not counted in any figure). */
  skipped: number;
  /** Tokens the session budget had counted at the last record that says (file order). */
  spentTokens?: number;
}

/** The call records among a history file's lines, in file order. */
export function callLogFrom(lines: Iterable<unknown>): CallLog {
  const log: CallLog = { calls: [], summaryCalls: [], skipped: 0 };
  for (const line of lines) {
    if (!isCallLine(line)) continue;
    if (line.kind === 'call') {
      const r = parseCallRecord(line.call);
      if (r) log.calls.push(r);
      else log.skipped++;
      if (r?.budget && count(r.budget.spentTokens)) log.spentTokens = r.budget.spentTokens;
    } else {
      const r = parseSummaryCallRecord(line.call);
      if (r) log.summaryCalls.push(r);
      else log.skipped++;
      if (r?.budget && count(r.budget.spentTokens)) log.spentTokens = r.budget.spentTokens;
    }
  }
  return log;
}

/**
 * A call's input tokens as billed: the provider's figures when it reported them (the cached part from our
 * count's share when it reported none: see reportedInput), else our own count (everything not cached
 * written to the cache; scaled for a model we do not count exactly, see `scaled`), none for a call that was not
 * billed.
 */
export function billedInputOf(r: CallRecord): BilledInput {
  if (r.billedBy === 'none') return { input: 0, cached: 0 };
  const u = r.usage;
  if (r.billedBy === 'provider' && u) return reportedInput(u, { tokensSent: 0, cachedTokens: 0 }).input;
  if (r.billedBy === 'estimate' && u?.inputTokens !== undefined) return reportedInput(u, r).input;
  if (r.billedBy === 'estimate' && r.scaled) return reportedInput({ inputTokens: r.scaled.inputTokens }, r).input;
  return { input: r.tokensSent, cached: r.cachedTokens };
}

/**
 * The call's cost in units recomputed from its figures and the prices it records (the recorded `cost`
 * when it records no prices: files written before they were kept).
 */
export function recomputedCost(r: CallRecord): number {
  if (!r.prices) return r.cost;
  const output = r.billedBy === 'estimate' && r.scaled ? r.scaled.outputTokens : r.outputTokens;
  return inputUnits(billedInputOf(r), r.prices) + output * r.prices.outputPrice;
}

/** Sums of a log: what the meter shows after the session's calls. */
export interface CallTotals {
  calls: number;
  tokensSent: number;
  cachedTokens: number;
  outputTokens: number;
  /** Calls whose prompt size the provider reported, and those figures summed. */
  reportedCalls: number;
  reportedInputTokens: number;
  reportedCachedTokens: number;
  costUnits: number;
  /** Money, when every billed call of the log had a known price; undefined otherwise. */
  costUsd?: number;
  /**
   * Units of summary calls in a separate summary model's own units (`unitsOf`), one entry per model: not in
   * `costUnits`, nor added to each other, which they would mix.
   */
  summaryUnits?: ModelUnits[];
  /**
   * Units of model calls (and the agent's own summary calls) made with other models than `model` (the
   * conversation switched models), one entry per model in the order first used: each model's unit is its
   * own uncached input, so they are kept out of `costUnits` and out of each other, which they would mix.
   */
  otherModelUnits?: ModelUnits[];
}

/**
 * The agent model whose units a summary call's `cost` is in (unless `unitsOf`): the one it records, else,
 * in older records, its own model when it has no money (a converted separate model's call always has
 * money); undefined when the record cannot tell (then counted as the current model's, as before).
 */
export function summaryUnitsModel(s: SummaryCallRecord): string | undefined {
  return s.agentModel ?? (s.costUsd === undefined ? s.model : undefined);
}

/**
 * `model`: whose units `costUnits` is in (default: the last call's model); a call of another model adds
 * to `otherModelUnits` instead (a record without a model is taken as `model`'s, as files before it was kept).
 */
export function callTotals(log: Pick<CallLog, 'calls' | 'summaryCalls'>, model?: string): CallTotals {
  const current = model ?? log.calls.findLast((r) => r.model !== undefined)?.model;
  const t: CallTotals = {
    calls: log.calls.length,
    tokensSent: 0,
    cachedTokens: 0,
    outputTokens: 0,
    reportedCalls: 0,
    reportedInputTokens: 0,
    reportedCachedTokens: 0,
    costUnits: 0,
  };
  let usd: number | undefined = 0;
  const others = new Map<string, number>();
  const summaryModels = new Map<string, number>();
  for (const r of log.calls) {
    t.tokensSent += r.tokensSent;
    t.cachedTokens += r.cachedTokens;
    t.outputTokens += r.outputTokens;
    if (r.usage?.inputTokens !== undefined) {
      t.reportedCalls++;
      t.reportedInputTokens += r.usage.inputTokens;
      t.reportedCachedTokens += r.usage.cachedTokens ?? 0;
    }
    if (r.model === undefined || current === undefined || r.model === current) t.costUnits += r.cost;
    else addModelUnits(others, r.model, r.cost);
    usd = usd === undefined || (r.costUsd === undefined && r.cost > 0) ? undefined : usd + (r.costUsd ?? 0);
  }
  for (const s of log.summaryCalls) {
    const of = summaryUnitsModel(s);
    if (s.unitsOf !== undefined) addModelUnits(summaryModels, s.unitsOf, s.cost);
    else if (of === undefined || current === undefined || of === current) t.costUnits += s.cost;
    else addModelUnits(others, of, s.cost);
    usd = usd === undefined || (s.costUsd === undefined && s.cost > 0) ? undefined : usd + (s.costUsd ?? 0);
  }
  const summaryUnits = modelUnitsList(summaryModels);
  if (summaryUnits) t.summaryUnits = summaryUnits;
  const otherModelUnits = modelUnitsList(others);
  if (otherModelUnits) t.otherModelUnits = otherModelUnits;
  if (usd !== undefined && (t.costUnits > 0 || [...others.values()].some((u) => u > 0))) t.costUsd = usd;
  return t;
}
