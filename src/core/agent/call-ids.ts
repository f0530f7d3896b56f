// Tool-call ids as the session keeps them: unique within the session. Some servers reuse ids (the same
// one for two calls of an answer, or every turn) or send none; the history's results, its mask records
// and the providers' requests all pair a result with its call by id, so a repeated id mixes them up.
import type { Message, ToolCall } from '../messages';

/** `calls` with every empty id, or one already used in `messages` or earlier in `calls`, made unique. */
export function uniqueCallIds(calls: readonly ToolCall[], messages: readonly Message[]): ToolCall[] {
  const used = new Set<string>();
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) used.add(c.id);
    if (m.toolCallId) used.add(m.toolCallId);
  }
  return calls.map((call) => {
    let id = call.id;
    if (id === '' || used.has(id)) {
      const base = id || 'call';
      let n = 1;
      while (used.has(`${base}_${n}`)) n++;
      id = `${base}_${n}`;
    }
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
