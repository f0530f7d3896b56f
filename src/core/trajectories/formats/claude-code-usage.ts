// What a Claude Code assistant record says about its call: the provider's usage (output tokens only
// from the record that ends the response), the money, and whether the API edited the prompt it was sent.
import { isObject, optionalCount, optionalNumber, type JsonObject } from '../json';
import { plural, type Notes } from '../notes';
import type { RecordedUsage } from '../types';
import { usageFrom } from '../usage';
import { formatCount } from '../../numbers';

/** The call's usage and money from one of its records; undefined when the record gives neither. */
export function recordedOf(r: JsonObject, m: JsonObject, notes: Notes): RecordedUsage | undefined {
  noteContextEdits(r, m, notes);
  const u = usageFrom(m.usage) ?? {};
  if (typeof m.stop_reason !== 'string' || m.stop_reason === '') delete u.outputTokens;
  const cost = optionalNumber(r.costUSD);
  if (cost !== undefined) u.cost = cost;
  return Object.keys(u).length > 0 ? u : undefined;
}

/** Per file: the responses already counted (a response spans several records) and the tokens cleared. */
const edited = new WeakMap<Notes, { responses: Set<string>; cleared: number }>();

/**
 * The Messages API's context editing (`context_management.applied_edits`: `clear_tool_uses_*`,
 * `clear_thinking_*`) removed tool results or thinking from the prompt it was sent. The session file
 * keeps them whole and does not say which went, so replay counts more than that call sent: said.
 */
function noteContextEdits(r: JsonObject, m: JsonObject, notes: Notes): void {
  const cm = isObject(m.context_management) ? m.context_management : undefined;
  const edits = cm && Array.isArray(cm.applied_edits) ? cm.applied_edits.filter(isObject) : [];
  if (edits.length === 0) return;
  let state = edited.get(notes);
  if (!state) edited.set(notes, (state = { responses: new Set(), cleared: 0 }));
  const id = typeof m.id === 'string' ? `${m.id}:${String(r.requestId)}` : undefined;
  if (id !== undefined && state.responses.has(id)) return;
  if (id !== undefined) state.responses.add(id);
  for (const e of edits) {
    const n = optionalCount(e.cleared_input_tokens);
    if (typeof n === 'number') state.cleared += n;
  }
  const s = state;
  notes.add(
    'context-edits',
    (n) =>
      `${plural(n, 'call')} whose prompt the API edited (context management cleared ${formatCount(s.cleared)} ` +
      'input tokens of tool results or thinking): the log does not say which, so raw counts more than was sent ' +
      'from there on (compare with the recorded row)',
  );
}
