// Logs repeat themselves: a mini-swe-agent message keeps the whole provider response beside its text,
// a SWE-agent step keeps a copy of every prompt sent so far (quadratic in the run's length), a Claude
// Code line keeps a UI copy of each tool result. Replay needs none of these copies, so they are dropped
// while a file is read, one element at a time, and memory stays near the size of what is replayed.
import { isObject, type Json, type JsonObject } from '../json';

/** Keeps what replay reads from a provider response: its id, model, first message and usage. */
function slimResponse(r: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (r.id !== undefined) out.id = r.id;
  if (typeof r.model === 'string') out.model = r.model.slice(0, 200);
  if (r.usage !== undefined) out.usage = r.usage;
  if (Array.isArray(r.choices) && isObject(r.choices[0])) out.choices = [{ message: r.choices[0].message ?? null }];
  if (Array.isArray(r.output)) out.output = r.output;
  if (r.object !== undefined) out.object = r.object;
  return out;
}

/**
 * A pruner for one file: drops the copies inside each element of a log (a message, a step, an event,
 * a JSONL record) as it is parsed. SWE-agent keeps the prompt of every step (`query`, or `messages` in
 * earlier files): replay sends them (they can differ from `history`), so each prompt message equal to
 * one already read becomes that same object, and the steps share their messages instead of repeating them.
 */
export function createPruner(): (v: Json) => void {
  const seen = new Map<string, Json>();
  const share = (list: Json[]) => {
    for (const [i, m] of list.entries()) {
      const key = JSON.stringify(m);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, m);
      else list[i] = first;
    }
  };
  return (v) => {
    if (!isObject(v)) return;
    // mini-swe-agent: `extra.response` repeats the message (and, for rejected replies, is all we have).
    if (isObject(v.extra) && isObject(v.extra.response)) v.extra.response = slimResponse(v.extra.response);
    else if (isObject(v.extra) && typeof v.extra.response === 'string') v.extra.response = ''; // a repr: no usage in it
    if ((Array.isArray(v.query) || Array.isArray(v.messages)) && 'observation' in v && 'action' in v) {
      delete v.state;
      if (Array.isArray(v.query)) {
        delete v.messages;
        share(v.query);
      } else if (Array.isArray(v.messages)) share(v.messages);
    }
    // OpenHands events: the raw model response beside the parsed action.
    if (isObject(v.tool_call_metadata) && isObject(v.tool_call_metadata.model_response))
      v.tool_call_metadata.model_response = slimResponse(v.tool_call_metadata.model_response);
    // Claude Code: the UI's copy of a tool result (the message holds the one the model saw).
    if ('toolUseResult' in v && isObject(v.message)) delete v.toolUseResult;
    // Gemini CLI: the UI's rendering of each tool result beside the result the model got.
    if (v.type === 'gemini' && Array.isArray(v.toolCalls))
      for (const c of v.toolCalls) if (isObject(c)) delete c.resultDisplay;
    // Claude Code file snapshots and Codex UI events (all but token counts and rollbacks) carry no context;
    // a Codex event's turn id is kept (where a fork's copy of its parent ends).
    if (v.type === 'file-history-snapshot') delete v.snapshot;
    if (
      v.type === 'event_msg' &&
      isObject(v.payload) &&
      v.payload.type !== 'token_count' &&
      v.payload.type !== 'thread_rolled_back'
    ) {
      const turn = v.payload.turn_id;
      v.payload = { type: v.payload.type ?? null, ...(typeof turn === 'string' ? { turn_id: turn } : {}) };
    }
  };
}

/** Prunes a JSONL record and the elements of the lists it holds (an OpenHands eval line holds a whole run). */
export function pruneRecord(v: Json, prune: (v: Json) => void): void {
  prune(v);
  if (!isObject(v)) return;
  for (const k of ['history', 'messages', 'trajectory']) {
    const list = v[k];
    if (Array.isArray(list)) list.forEach(prune);
  }
  // Gemini CLI: a `$set` can replace the whole conversation.
  if (isObject(v.$set) && Array.isArray(v.$set.messages)) v.$set.messages.forEach(prune);
}
