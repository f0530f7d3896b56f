// Where a Codex fork's or sub-agent's copy of its parent ends. A forked rollout (its `session_meta` names
// a parent) is written as: its own metadata, then the parent's rollout as it was at the fork (the
// parent's metadata, messages, `turn_context` lines and `token_count` events), then the child's own
// turns. The copied messages are the history the child's first call sends; the copied `token_count`
// events are the parent's calls, already in the parent's rollout.
//
// Line timestamps cannot mark the end: Codex stamps every line when it writes it, so the copy carries
// the fork's time, like the child's first lines. Turn ids can: since Codex mints them as UUIDv7 (the
// first 48 bits are the millisecond of minting), a turn minted before the child's own id (also a UUIDv7)
// is a copied parent turn, and the first turn minted at or after it is the child's first turn. The child
// makes no model call outside a turn, so nothing before that turn is a call of this file.
import { isObject, type Json, type JsonObject } from '../json';

/** The millisecond a UUIDv7 was minted at, or undefined for any other id. */
export function uuidV7Time(id: unknown): number | undefined {
  if (typeof id !== 'string') return undefined;
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.exec(id);
  return m ? parseInt(m[1]! + m[2]!, 16) : undefined;
}

/** The turn a record opens (`turn_context`, `task_started`): its id, or null when it names none. */
function turnOf(r: JsonObject): string | null | undefined {
  const p = isObject(r.payload) ? r.payload : undefined;
  if (!p) return undefined;
  const opens =
    r.type === 'turn_context' || (r.type === 'event_msg' && (p.type === 'task_started' || p.type === 'turn_started'));
  if (!opens) return undefined;
  return typeof p.turn_id === 'string' ? p.turn_id : null;
}

export type ForkCopy =
  /** Nothing copied: every record is the child's own (a sub-agent started with a fresh history). */
  | { kind: 'none' }
  /** Records `from` (the copied parent metadata, or the first copied record) to `to` (exclusive) are the copy. */
  | { kind: 'copy'; from: number; to: number }
  /** A copy is there but its end is not marked (turn ids that are not UUIDv7). */
  | { kind: 'unmarked'; from: number };

/**
 * Finds the copy in a rollout whose own metadata (at `meta`) names a parent. `id` is the child's session
 * id; without a UUIDv7 one, its metadata's creation time stands in (Codex writes it to the millisecond).
 */
export function forkCopy(records: readonly Json[], meta: number, id: string | undefined, created: unknown): ForkCopy {
  const born = uuidV7Time(id) ?? (typeof created === 'string' ? Date.parse(created) : NaN);
  let from: number | undefined; // the first record known to be copied
  let calls = false; // a response or usage seen before any turn: the child makes none outside a turn
  let placed = false; // a copied turn placed by its id
  let unplaced = false; // a turn after the copy began that the ids cannot place
  for (let i = meta + 1; i < records.length; i++) {
    const r = records[i];
    if (!isObject(r)) continue;
    const p = isObject(r.payload) ? r.payload : undefined;
    if (r.type === 'session_meta' && p && p.id !== id) from ??= i; // the parent's metadata, copied
    if (r.type === 'event_msg' && p?.type === 'token_count') calls = true;
    if (r.type === 'response_item' && p?.type === 'message' && p.role === 'assistant') calls = true;
    const turn = turnOf(r);
    if (turn === undefined) continue;
    if (calls) from ??= meta + 1;
    const at = uuidV7Time(turn);
    if (at === undefined || Number.isNaN(born)) {
      // Nothing copied before the child's first turn (a sub-agent started fresh, or a Codex before
      // UUIDv7 turn ids with no copy): all its own. After a copy began, it may be either.
      if (from === undefined) return { kind: 'none' };
      unplaced = true;
    } else if (at >= born) return from === undefined ? { kind: 'none' } : { kind: 'copy', from, to: i };
    else {
      from ??= i; // a turn minted before the child: the parent's, copied
      placed = true;
    }
  }
  if (from === undefined) return { kind: 'none' };
  // Every turn placed, all before the child's: it never started one of its own, all of it is the copy.
  return placed && !unplaced ? { kind: 'copy', from, to: records.length } : { kind: 'unmarked', from };
}

/** A record as Codex wrote it, without the time it was written at (a copy is stamped anew). */
const written = (r: Json) => (isObject(r) ? JSON.stringify({ ...r, timestamp: null }) : JSON.stringify(r));

/**
 * An unmarked copy's end, read from the parent's own rollout: the copy is the parent's records as they
 * were at the fork, so it ends at the first record that differs from the parent's (or past its last).
 * Undefined when the copy does not start as the parent's rollout does (not that parent's, or rewritten).
 */
export function copyEndFromParent(records: readonly Json[], from: number, parent: readonly Json[]): number | undefined {
  if (parent.length === 0 || written(records[from]!) !== written(parent[0]!)) return undefined;
  let i = from;
  for (const p of parent) {
    if (i >= records.length || written(records[i]!) !== written(p)) break;
    i++;
  }
  // The child's own records start with a turn (its context, or the person's message). A difference
  // anywhere else (a response, a usage event) is not where the child began: the parent's rollout was
  // written differently (another Codex version), and the copy's end stays unknown.
  const next = records[i];
  if (next === undefined || !isObject(next)) return i;
  const p = isObject(next.payload) ? next.payload : undefined;
  const person = next.type === 'response_item' && p?.type === 'message' && p.role === 'user';
  const said = next.type === 'event_msg' && p?.type === 'user_message';
  return turnOf(next) !== undefined || person || said ? i : undefined;
}
