// Context Desk's own history (`.context-desk/history/<session>.jsonl`, see store/history.ts): one
// `{v: 1, session, index, at, message, tokens?, turn?, masked?, redactions?}` record per message. Each
// assistant message was one call over every message before it. Records without a `message` that carry
// a `type` or `kind` (per-call records are planned) are counted and skipped, never a reason to fail.
import type { Message, Origin, Role } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { isObject, type Json, type JsonObject } from '../json';
import { noteBadLines } from '../notes';
import type { Importer } from '../importer';
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
    for (const r of records) {
      const m = isObject(r) ? messageOf(r) : undefined;
      if (!m) {
        other++;
        continue;
      }
      const index = b.push(m);
      if (m.role === 'assistant') b.call(index);
    }
    // Counted, not warned about: newer versions add record kinds older ones skip by design.
    return [
      { format: 'context-desk', messages: b.messages, calls: b.calls, ...(other > 0 ? { ignoredRecords: other } : {}) },
    ];
  },
};
