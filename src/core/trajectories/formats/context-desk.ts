// Context Desk's own history (`.context-desk/history/<session>.jsonl`, see store/history.ts): one
// `{v: 1, session, index, at, message, ...}` record per message (a repeated index is a mask record, not a
// message), and one `{v: 1, session, kind: 'call', call}` record per model call, written after the answer
// it produced (`answered`) or on its own for a call whose answer was not kept (`kind: 'strategy'` lines, the
// live strategy's state, are skipped: replay builds its own; a `kind: 'set-aside'` line takes its message out,
// as it was never sent). Each call's recorded usage
// is what the provider reported plus the agent's own count and cost, recomputed from the record.
// Records of other kinds are counted and skipped, never a reason to fail.
import { parseCallRecord, parseSummaryCallRecord, recomputedCost, summaryUnitsModel } from '../../agent/call-log';
import type { CallRecord } from '../../agent/session-state';
import type { Message, Origin, Role } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { modelName } from '../model-name';
import { isObject, type Json, type JsonObject } from '../json';
import { noteBadLines, plural, type Notes } from '../notes';
import type { Importer } from '../importer';
import type { RecordedSummaries, RecordedUsage } from '../types';
import { chatOrigin, chatToolCalls } from './chat';

const ROLES = new Set<Role>(['system', 'user', 'assistant', 'tool']);
const ORIGINS = new Set<Origin>(['person', 'agent', 'environment']);

function isRecord(v: Json): v is JsonObject {
  return isObject(v) && v.v === 1 && typeof v.session === 'string';
}

function messageOf(v: JsonObject): Message | undefined {
  const m = isObject(v.message) ? v.message : undefined;
  if (!m || typeof m.role !== 'string' || !ROLES.has(m.role as Role)) return undefined;
  const role = m.role as Role;
  const origin =
    typeof m.origin === 'string' && ORIGINS.has(m.origin as Origin) ? (m.origin as Origin) : chatOrigin(role);
  const out: Message = { role, content: typeof m.content === 'string' ? m.content : '', origin };
  const calls = chatToolCalls(m.toolCalls, 'message');
  if (calls) out.toolCalls = calls;
  if (typeof m.toolCallId === 'string') out.toolCallId = m.toolCallId;
  if (typeof m.name === 'string') out.name = m.name;
  if (typeof m.storedAt === 'string') out.storedAt = m.storedAt;
  return out;
}

/** What a call record says, as replay's recorded usage; notes a stored cost its figures do not give. */
function recordedOf(r: CallRecord, notes: Notes): RecordedUsage {
  const units = recomputedCost(r);
  if (Math.abs(units - r.cost) > 0.005 * Math.max(1, r.cost))
    notes.add(
      'cost-mismatch',
      (n) =>
        `${plural(n, 'call record')} whose stored cost differs from its figures by over 0.5 % (the figures are used)`,
    );
  const u: RecordedUsage = { sentTokens: r.tokensSent, costUnits: units, outputTokens: r.outputTokens };
  if (typeof r.model === 'string') u.costModel = r.model;
  if (r.usage?.inputTokens !== undefined) u.inputTokens = r.usage.inputTokens;
  if (r.usage?.cachedTokens !== undefined) u.cachedTokens = r.usage.cachedTokens;
  if (r.usage?.cacheWriteTokens !== undefined) u.cacheWriteTokens = r.usage.cacheWriteTokens;
  if (r.money) u.cost = units * r.money.usdPerUnit;
  return u;
}

function isSetAside(v: Json): boolean {
  return isRecord(v) && v.kind === 'set-aside' && Number.isInteger(v.index);
}

function isCallKind(v: JsonObject): boolean {
  return v.kind === 'call' || v.kind === 'summary-call';
}

export const contextDeskHistory: Importer = {
  name: 'Context Desk history',
  detect: (input) =>
    input.kind === 'lines' &&
    input.records.some(isRecord) &&
    input.records.every((r) => isRecord(r) || (isObject(r) && ('type' in r || 'kind' in r))),
  read(input, notes) {
    const b = new TrajectoryBuilder();
    const records = input.kind === 'lines' ? input.records : [];
    if (input.kind === 'lines') noteBadLines(notes, input.bad);
    let other = 0;
    // Messages never sent (alone over the window): their line follows them, so they are known first.
    const seen = new Set<number>(records.filter(isSetAside).map((r) => (r as JsonObject).index as number));
    let pending: number | undefined; // an answer whose call record may follow
    let model: string | undefined; // the first a call record names: picks the cache replay bills with
    // When the last call's record was made (after its answer): its prompt had been read by then.
    let lastEnd: number | undefined;
    const flush = (): void => {
      if (pending !== undefined) {
        b.call(pending);
        lastEnd = undefined; // a call without its record: when it ended is not known
      }
      pending = undefined;
    };
    let summaries: RecordedSummaries | undefined;
    let summaryUsd: number | undefined = 0;
    for (const r of records) {
      // The live strategy's own state (for a resume): replay builds its own.
      if (isObject(r) && isRecord(r) && (r.kind === 'strategy' || isSetAside(r))) continue;
      if (isObject(r) && isRecord(r) && isCallKind(r)) {
        if (r.kind === 'summary-call') {
          const sc = parseSummaryCallRecord(r.call);
          if (!sc) {
            other++;
            continue;
          }
          summaries ??= { calls: 0, inputTokens: 0, outputTokens: 0, units: [] };
          summaries.calls++;
          summaries.inputTokens += sc.inputTokens;
          summaries.outputTokens += sc.outputTokens;
          // In the units of the model the record names (unitsOf: a separate summary model's own); grouped
          // per model by the report, never added across models.
          const model = sc.unitsOf ?? summaryUnitsModel(sc);
          summaries.units.push({ ...(model !== undefined ? { model } : {}), units: sc.cost });
          summaryUsd = summaryUsd === undefined || sc.costUsd === undefined ? undefined : summaryUsd + sc.costUsd;
          continue;
        }
        const rec = parseCallRecord(r.call);
        if (!rec) {
          notes.add('bad-call', (n) => `${plural(n, 'call record')} with missing or invalid figures skipped`);
          continue;
        }
        const recorded = recordedOf(rec, notes);
        model ??= modelName(rec.model);
        let index: number;
        if (rec.answered === true && pending !== undefined) {
          index = b.call(pending, recorded);
          pending = undefined;
        } else {
          flush();
          index = b.rejectedCall(recorded);
        }
        // The pause before it (cache-model.ts): from the previous call's end to its own send, both recorded.
        const idle = rec.sentAt !== undefined && lastEnd !== undefined ? rec.sentAt - lastEnd : undefined;
        if (idle !== undefined && idle >= 0) b.calls[index]!.idleBefore = idle;
        lastEnd = rec.at;
        continue;
      }
      const m = isObject(r) && typeof r.index === 'number' ? messageOf(r) : undefined;
      if (!m) {
        other++;
        continue;
      }
      const index = (r as JsonObject).index as number;
      if (seen.has(index)) continue; // a mask record (the message was read already), or set aside
      seen.add(index);
      flush();
      const at = b.push(m);
      if (m.role === 'assistant') pending = at;
    }
    flush();
    if (summaries && summaryUsd !== undefined) summaries.cost = summaryUsd;
    // Counted, not warned about: newer versions add record kinds older ones skip by design.
    return [
      {
        format: 'context-desk',
        ...(model !== undefined ? { model } : {}),
        messages: b.messages,
        calls: b.calls,
        ...(summaries ? { recordedSummaries: summaries } : {}),
        ...(other > 0 ? { ignoredRecords: other } : {}),
      },
    ];
  },
};
