// Records of one response that Claude Code 2.1 writes on side branches. When a response makes several
// tool calls, its tool_use records, their results and the hook `progress` records around them each name
// as parent the record written before them in their own chain, so some calls and results hang below a
// sibling or below hook progress records, off the path from the last record back to the root. They were
// sent (the next call's recorded prompt grows by them; anthropics/claude-code#31330 is the same tree
// losing them on resume), so they join the path here. In the public 2.1 sessions checked, every message
// the path left out was of this kind (22 in one session). A rewind or an edit starts below a person's
// prompt, and a retried reply is another response: those stay out.
import { isObject, type JsonObject } from '../json';

const isTurn = (r: JsonObject) => r.type === 'user' || r.type === 'assistant';

function blocks(r: JsonObject): JsonObject[] {
  const m = isObject(r.message) ? r.message : undefined;
  return Array.isArray(m?.content) ? m.content.filter(isObject) : [];
}

/**
 * What the records of one response share: message id, request id and prompt figures (one request has
 * one prompt; a sanitised file may give every record the same placeholder ids).
 */
function responseKey(r: JsonObject): string | undefined {
  const m = isObject(r.message) ? r.message : undefined;
  if (r.type !== 'assistant' || typeof m?.id !== 'string') return undefined;
  const u = isObject(m.usage) ? m.usage : {};
  return JSON.stringify([
    m.id,
    r.requestId ?? null,
    u.input_tokens ?? null,
    u.cache_read_input_tokens ?? null,
    u.cache_creation_input_tokens ?? null,
  ]);
}

/** The tool_use ids a user record answers, when it holds tool results and nothing else. */
function answers(r: JsonObject): string[] | undefined {
  if (r.type !== 'user') return undefined;
  const content = blocks(r);
  const m = isObject(r.message) ? r.message : undefined;
  if (!Array.isArray(m?.content) || content.length === 0 || content.length !== m.content.length) return undefined;
  const ids: string[] = [];
  for (const b of content) {
    if (b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') return undefined;
    ids.push(b.tool_use_id);
  }
  return ids;
}

/**
 * Adds to `keep` (the records on the active path) the turns of the same responses left on side
 * branches: an assistant record of a response already kept, and a record of tool results answering
 * kept tool calls not yet answered, each hanging (through any non-turn records, such as hook progress)
 * below a kept turn. Repeated until nothing more joins, since a rejoined call brings its result.
 */
export function rejoinParallelRecords(
  segment: readonly JsonObject[],
  keep: Set<JsonObject>,
  byUuid: ReadonlyMap<string, JsonObject>,
): void {
  const responses = new Set<string>();
  const called = new Set<string>();
  const answered = new Set<string>();
  const take = (r: JsonObject) => {
    keep.add(r);
    const key = responseKey(r);
    if (key !== undefined) responses.add(key);
    for (const b of blocks(r))
      if (r.type === 'assistant' && b.type === 'tool_use' && typeof b.id === 'string') called.add(b.id);
    for (const id of answers(r) ?? []) answered.add(id);
  };
  for (const r of keep) take(r);
  // The nearest turn above a record, through non-turn records; remembered, so each chain is walked once.
  const anchors = new Map<JsonObject, JsonObject | undefined>();
  const anchorOf = (r: JsonObject): JsonObject | undefined => {
    const walked: JsonObject[] = [];
    let p = typeof r.parentUuid === 'string' ? byUuid.get(r.parentUuid) : undefined;
    while (p !== undefined && !isTurn(p) && !anchors.has(p) && walked.length <= byUuid.size) {
      walked.push(p);
      p = typeof p.parentUuid === 'string' ? byUuid.get(p.parentUuid) : undefined;
    }
    const found = p !== undefined && !isTurn(p) ? anchors.get(p) : p;
    for (const w of walked) anchors.set(w, found);
    return found;
  };
  let waiting = segment.filter((r) => isTurn(r) && !keep.has(r));
  for (let joined = true; joined; waiting = waiting.filter((r) => !keep.has(r))) {
    joined = false;
    for (const r of waiting) {
      const anchor = anchorOf(r);
      if (anchor === undefined || !keep.has(anchor)) continue;
      const key = responseKey(r);
      const ids = answers(r);
      const same = key !== undefined && responses.has(key);
      const answering = ids !== undefined && ids.every((id) => called.has(id) && !answered.has(id));
      if (same || answering) {
        take(r);
        joined = true;
      }
    }
  }
}
