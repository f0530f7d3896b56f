// Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one `{timestamp, type, payload}`
// line each. `response_item` payloads are Responses API items (the model's history), `event_msg`
// `token_count` payloads record the provider's usage of the call just made (`last_token_usage`), and a
// `compacted` line replaces the history with its `replacement_history` (or, in older versions, with the
// summary alone). Early rollouts (2025) wrote a `{id, timestamp, instructions}` first line and the items
// themselves on the following lines; both are read.
import { firstModel } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { fail, printable } from '../errors';
import { isObject, type Json, type JsonObject } from '../json';
import { plural, noteBadLines, type Notes } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import type { Input } from '../read/source';
import type { RecordedUsage } from '../types';
import { contentText } from '../content';
import { usageFrom } from '../usage';
import { inputMessage, itemKind, ResponseAssembler, responseOutputMessage } from './responses';
import { copyEndFromParent, forkCopy, type ForkCopy } from './codex-fork';

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

function isRollout(records: Json[]): boolean {
  const first = records[0];
  if (!isObject(first)) return false;
  const modern = records.some(
    (r) => isObject(r) && typeof r.type === 'string' && ROLLOUT_TYPES.has(r.type) && 'payload' in r,
  );
  const early =
    typeof first.id === 'string' &&
    typeof first.timestamp === 'string' &&
    !('type' in first) &&
    records.slice(1).some((r) => isObject(r) && itemKind(r) !== undefined);
  return modern || early;
}

/** Harness text in a user item: Codex's `<environment_context>` block is not a person's words. */
function userOrigin(item: JsonObject): 'person' | 'environment' {
  const content = Array.isArray(item.content) ? item.content : [];
  const first = isObject(content[0]) && typeof content[0].text === 'string' ? content[0].text.trimStart() : '';
  return first.startsWith('<environment_context>') ? 'environment' : 'person';
}

/** The session a fork or a sub-agent was started from (`forked_from_id`, a thread spawn's parent). */
function forkedFrom(meta: JsonObject): string | undefined {
  if (typeof meta.forked_from_id === 'string') return meta.forked_from_id;
  const source = isObject(meta.source) ? meta.source : undefined;
  const sub = source && isObject(source.subagent) ? source.subagent : undefined;
  const spawn = sub && isObject(sub.thread_spawn) ? sub.thread_spawn : undefined;
  return typeof spawn?.parent_thread_id === 'string' ? spawn.parent_thread_id : undefined;
}

/** A person's turn starts here: a user message that is neither harness context nor AGENTS.md. */
function startsTurn(m: Message): boolean {
  if (m.role !== 'user' || m.origin !== 'person') return false;
  const text = m.content.trimStart();
  return !text.startsWith('<user_instructions>') && !text.startsWith('# AGENTS.md instructions');
}

/** A user item holding the user's instructions (AGENTS.md) as Codex sends them. */
function isUserInstructions(item: JsonObject): boolean {
  if (item.type !== 'message' || item.role !== 'user' || !Array.isArray(item.content)) return false;
  const first = item.content[0];
  const text = isObject(first) && typeof first.text === 'string' ? first.text.trimStart() : '';
  return text.startsWith('<user_instructions>') || text.startsWith('# AGENTS.md instructions');
}

/** `thread_rolled_back`: the last `turns` user turns leave the context, from the first one's message on. */
function rollBack(b: TrajectoryBuilder, turns: number): void {
  if (!(turns > 0)) return;
  const live = b.live();
  const starts = live.filter((i) => startsTurn(b.messages[i]!));
  const cut = starts[Math.max(0, starts.length - turns)];
  if (cut === undefined) return;
  for (const i of live) if (i >= cut) b.forget(i);
}

const positive = (v: unknown) => typeof v === 'number' && v > 0;

/**
 * Reads `token_count` events as the usage of the call just made. Codex also sends one when only its
 * rate limits change (as each request's headers arrive, before its output) and after a compaction or
 * rollback re-estimates the context: those repeat the last call's `last_token_usage`, or give an
 * estimate with no input tokens, beside an unchanged running total. Read as usage, the call before
 * them that recorded none (one the person interrupted) got the previous call's figures, or 0 tokens.
 */
function tokenCounts(): (payload: JsonObject) => RecordedUsage | undefined {
  let total: string | undefined; // the running total of the last event read as a call's usage
  return (payload) => {
    // Codex before `info` (2025) wrote the response's own usage flat in the event, once per completed
    // response: that call's figures, with no running total and no re-sends. `info: null` is no usage yet.
    if (!('info' in payload)) return positive(payload.input_tokens) ? usageFrom(payload) : undefined;
    const info = isObject(payload.info) ? payload.info : undefined;
    const last = isObject(info?.last_token_usage) ? info.last_token_usage : undefined;
    if (!info || !last || !positive(last.input_tokens)) return undefined;
    const sum = isObject(info.total_token_usage) ? info.total_token_usage : undefined;
    if (sum) {
      // Only a new call adds to the running input and output; a re-sent or re-estimated one does not.
      const key = `${String(sum.input_tokens)}/${String(sum.output_tokens)}`;
      if (key === total) return undefined;
      total = key;
    }
    return usageFrom(last);
  };
}

/** The copy of a parent's rollout in a fork's or sub-agent's file, found from its first metadata. */
function copyOf(records: Json[], parent?: readonly Json[]): ForkCopy {
  const meta = records.findIndex((r) => isObject(r) && r.type === 'session_meta' && isObject(r.payload));
  const payload = meta >= 0 ? (records[meta] as JsonObject).payload : undefined;
  if (!isObject(payload) || forkedFrom(payload) === undefined) return { kind: 'none' };
  const copy = forkCopy(records, meta, typeof payload.id === 'string' ? payload.id : undefined, payload.timestamp);
  if (copy.kind !== 'unmarked' || !parent) return copy;
  const to = copyEndFromParent(records, copy.from, parent);
  return to === undefined ? copy : { kind: 'copy', from: copy.from, to };
}

/**
 * The parent session of a fork or sub-agent whose copy of it has no marked end (turn ids that are not
 * UUIDv7): the loader looks for that session's rollout, whose records show where the copy ends.
 */
export function unmarkedForkParent(input: Input): string | undefined {
  if (input.kind !== 'lines') return undefined;
  const meta = input.records.find((r) => isObject(r) && r.type === 'session_meta' && isObject(r.payload));
  const payload = isObject(meta) && isObject(meta.payload) ? meta.payload : undefined;
  const parent = payload && forkedFrom(payload);
  return parent !== undefined && copyOf(input.records).kind === 'unmarked' ? parent : undefined;
}

function noteFork(notes: Notes, parent: string, fork: ForkCopy, records: Json[]): void {
  const of = `a fork or sub-agent of session ${JSON.stringify(parent)}`;
  if (fork.kind === 'copy') {
    const copied = records
      .slice(fork.from, fork.to)
      .filter((r) => isObject(r) && r.type === 'event_msg' && isObject(r.payload) && r.payload.type === 'token_count');
    notes.say(
      `${of}: it starts with a copy of that session's history (records ${fork.from + 1} to ${fork.to}, ` +
        `${plural(copied.length, 'recorded call')} of the parent's), replayed as the context its first call sends, ` +
        "not as this file's calls or recorded usage",
    );
  } else if (fork.kind === 'unmarked')
    notes.say(
      `${of}: it starts with a copy of that session's history from record ${fork.from + 1}, and its turn ids do not ` +
        "say where the copy ends: the parent's copied calls are replayed as this file's, and recorded usage is left out " +
        "(it would count the parent's calls again); with the parent's rollout in the same sessions folder they are told apart",
    );
}

export const codex: Importer = {
  name: 'Codex CLI',
  detect: (input: Input) => input.kind === 'lines' && isRollout(input.records),
  read: (input, notes) => readCodex(input, notes),
};

/** Reads a rollout; `parent`, the records of the session it was forked from, places an unmarked copy's end. */
export function readCodex(input: Input, notes: Notes, parent?: readonly Json[]): ImportedRun[] {
  const records = input.kind === 'lines' ? input.records : [];
  if (input.kind === 'lines') noteBadLines(notes, input.bad);
  const b = new TrajectoryBuilder();
  const a = new ResponseAssembler();
  const tokenUsage = tokenCounts();
  let waiting: number | undefined; // the last call with no usage recorded yet
  let instructions: string | undefined; // the system instructions, sent with every request
  let own: { id?: string; parent?: string } | undefined; // the file's own session (its first metadata)
  const fork = copyOf(records, parent);
  // Inside a fork's copy of its parent: the messages are the context the child starts with, the
  // responses and usage are the parent's calls (in the parent's rollout), not calls of this file.
  let copying = false;
  // `instructions` (session_meta, and the first line of early rollouts) is the user's instructions
  // (AGENTS.md), not the system prompt: Codex 0.3x on also sends them as a `<user_instructions>` user
  // item, which the rollout keeps; earlier versions appended them to the system prompt. Only
  // `base_instructions` is the system prompt itself.
  const sentAsItem = records.some(
    (r) => isObject(r) && isObject(r.payload) && r.type === 'response_item' && isUserInstructions(r.payload),
  );
  const system = (base: string | undefined, user: Json | undefined) => {
    const extra = typeof user === 'string' && user !== '' && !sentAsItem ? user : undefined;
    const text = base !== undefined && extra !== undefined ? `${base}\n\n${extra}` : (base ?? extra);
    if (text !== undefined) {
      instructions = text;
      b.push({ role: 'system', content: text, origin: 'agent' });
    }
    if (base === undefined)
      notes.say(
        "the rollout does not keep Codex's system instructions" +
          (extra !== undefined ? ' (only the AGENTS.md instructions sent with them)' : '') +
          ': raw counts are a lower bound',
      );
  };
  const flush = () => {
    if (!a.pending) return;
    const at = b.push(a.take());
    if (!copying) waiting = b.call(at);
  };
  const item = (v: JsonObject, where: string) => {
    const kind = itemKind(v);
    if (kind === 'output' || kind === 'reasoning') a.add(v, where, notes);
    else if (v.type === 'agent_message') {
      // A message from another agent of the same run (multi-agent Codex): sent as this agent's input.
      flush();
      b.push({ role: 'user', content: contentText(v.content, where, notes), origin: 'agent' });
    } else if (kind === 'input') {
      flush();
      b.push(inputMessage(v, where, notes, v.role === 'user' ? userOrigin(v) : 'person'));
    } else if (v.type === 'compaction' || v.type === 'context_compaction' || v.type === 'compaction_summary')
      notes.add(
        'inline-compaction',
        (n) =>
          `${plural(n, 'compaction item')} in the history (an encrypted summary the provider wrote): the calls after ` +
          'one sent it in place of what came before it, which raw still sends, so raw counts more than was sent ' +
          'from there on (compare with the recorded row)',
      );
    else if (v.type === 'additional_tools')
      notes.add(
        'additional-tools',
        (n) =>
          `${plural(n, 'set')} of tool definitions added to the session (additional_tools) not counted (replay ` +
          'counts messages): raw counts are a lower bound',
      );
    else
      notes.add(
        `item:${String(v.type)}`,
        (n) => `${plural(n, 'item')} of type ${JSON.stringify(v.type ?? null)} not replayed`,
      );
  };
  records.forEach((r, i) => {
    if (fork.kind === 'copy' && (i === fork.from || i === fork.to)) {
      flush();
      copying = i === fork.from;
    }
    if (!isObject(r)) return;
    const where = `record ${i + 1}`;
    const payload = isObject(r.payload) ? r.payload : undefined;
    if (r.type === 'session_meta' && payload) {
      const id = typeof payload.id === 'string' ? payload.id : undefined;
      if (own !== undefined) {
        // Only the file's first metadata is its own. A fork copies its parent's rollout verbatim, the
        // parent's metadata with it, and a long-lived session repeats its own: neither is a second
        // system prompt (Codex sends the instructions once per request). Another session's metadata in
        // a file that names no parent is a second session whose calls would be merged into the first.
        if (own.parent === undefined && id !== undefined && own.id !== undefined && id !== own.id)
          fail(
            `holds more than one Codex session (${printable(own.id, 40)}, then ${printable(id, 40)} at ${where}): ` +
              'replay each rollout file on its own',
            'several Codex sessions in one file',
          );
        return;
      }
      own = { id, parent: forkedFrom(payload) };
      const base = isObject(payload.base_instructions) ? payload.base_instructions.text : undefined;
      system(typeof base === 'string' && base !== '' ? base : undefined, payload.instructions);
      if (own.parent !== undefined) noteFork(notes, own.parent, fork, records);
    } else if (r.type === 'response_item' && payload) item(payload, where);
    else if (r.type === 'event_msg' && payload?.type === 'token_count') {
      flush();
      const u = tokenUsage(payload); // read in a fork's copy too: it keeps the running total
      if (copying) return;
      if (u && waiting !== undefined) {
        b.calls[waiting]!.recorded = u;
        waiting = undefined;
      } else if (u) {
        // A new call's usage with no item written since the last one: a response with no output items
        // (or only items replay does not read), or a /compact summary call. It was sent and billed.
        b.rejectedCall(u);
        notes.add(
          'usage-without-items',
          (n) =>
            `${plural(n, 'call')} with recorded usage but no output items in the rollout (an empty response or a /compact summary): replayed with no reply, sent the context so far`,
        );
      }
    } else if (r.type === 'turn_context' || (r.type === 'event_msg' && payload?.type === 'turn_aborted')) {
      // A call's usage comes in its own turn: one left waiting (interrupted) never gets another call's.
      flush();
      waiting = undefined;
    } else if (r.type === 'event_msg' && payload?.type === 'thread_rolled_back') {
      flush();
      rollBack(b, typeof payload.num_turns === 'number' ? payload.num_turns : 0);
      notes.add(
        'rolled-back',
        (n) => `${plural(n, 'rollback')} (thread_rolled_back): later calls do not send the turns it removed`,
      );
    } else if (r.type === 'compacted' && payload) {
      flush();
      b.reset();
      // The instructions go with every request, outside the history a compaction replaces.
      if (instructions !== undefined) b.push({ role: 'system', content: instructions, origin: 'agent' });
      const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history : undefined;
      if (replacement)
        replacement.forEach((v, j) => {
          if (!isObject(v)) return;
          const w = `${where}: replacement ${j}`;
          if (itemKind(v) === 'input') b.push(inputMessage(v, w, notes, v.role === 'user' ? userOrigin(v) : 'person'));
          else if (itemKind(v) === 'output') b.push(responseOutputMessage({ output: [v] }, w, notes));
          else if (v.type === 'compaction' || v.type === 'compaction_summary')
            notes.add(
              'encrypted-compaction',
              (n) =>
                `${plural(n, 'compaction summary', 'compaction summaries')} sent encrypted (the rollout does not say its size): not counted, compare with the recorded row`,
            );
        });
      else {
        b.push({
          role: 'user',
          content: typeof payload.message === 'string' ? payload.message : '',
          origin: 'agent',
        });
        notes.add(
          'compacted-summary',
          (n) =>
            `${plural(n, 'compaction')} without its replacement history: the context after it is replayed from the summary alone (Codex also re-sends recent user messages)`,
        );
      }
    } else if (i === 0 && typeof r.instructions === 'string' && r.instructions !== '') {
      system(undefined, r.instructions); // early rollouts' first line
    } else if (
      r.type === undefined ||
      (typeof r.type === 'string' && !ROLLOUT_TYPES.has(r.type) && itemKind(r) !== undefined)
    ) {
      if (itemKind(r) !== undefined) item(r, where); // early rollouts: the items themselves
    }
  });
  flush();
  // A copy whose end is not marked: its calls cannot be told from the child's, and the parent's recorded
  // usage would be counted again under this file.
  if (fork.kind === 'unmarked') for (const c of b.calls) delete c.recorded;
  // Each turn's context names the model its calls went to.
  const model = firstModel(records, (r) =>
    isObject(r) && r.type === 'turn_context' && isObject(r.payload) ? r.payload.model : undefined,
  );
  return [{ format: 'codex', ...(model ? { model } : {}), messages: b.messages, calls: b.calls }];
}
