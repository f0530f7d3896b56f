// Claude Code sessions (`~/.claude/projects/<project>/<session>.jsonl`): one record per line. `user` and `assistant`
// records carry an Anthropic message; one API response is written as several records (one per content block) sharing
// `message.id`, merged back into one call here, with the provider's `usage` as the recorded figures. Compaction starts
// a new context: the calls after it send the summary and what follows, nothing before. The summary ("This session is
// being continued...") was written by the model for the agent, so its origin is `agent`: not a person's instruction,
// not an observation. Sub-agent (sidechain) records run in contexts of their own and are replayed as separate runs.
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { CallPauses } from '../call-pauses';
import { fail } from '../errors';
import { isObject, type Json, type JsonObject } from '../json';
import { plural, type Notes, noteBadLines, runMedia } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import type { Input } from '../read/source';
import { recordedOf } from './claude-code-usage';
import { assistantMessage, userMessages } from './anthropic';
import { activePath, isCompactionAgent, isCompactionStart } from './claude-code-path';
import { compactionRun, continuesElsewhere } from './claude-code-compaction';
import { isSubagentRecord, noteStreamJson, parentToolUse } from './claude-code-stream';
import { readAttachment } from './claude-code-attachments';

const IGNORED = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'system',
  'custom-title',
  'tag',
  'last-prompt',
]);

export function isClaudeCodeRecord(v: Json): v is JsonObject {
  return (
    isObject(v) &&
    typeof v.type === 'string' &&
    (isObject(v.message) || typeof v.sessionId === 'string' || (v.type === 'summary' && typeof v.summary === 'string'))
  );
}

function recordsOf(input: Input): JsonObject[] {
  const list =
    input.kind === 'lines' ? input.records : input.kind === 'document' && Array.isArray(input.value) ? input.value : [];
  return list.filter(isObject);
}

/**
 * The usage one record holds. Claude Code writes a record per content block as the response streams,
 * and 2.1 writes every one with `stop_reason: null` and the usage of `message_start`: input and cache
 * figures final, output a snapshot of 1 to 10 tokens. Output is taken only from a record that has a
 * stop reason (the end of the response); without one the call's output is counted from its text.
 */
/** What a merged message already holds: its lines and tool call ids (kept, not searched for at each merge). */
interface Merged {
  lines: Set<string>;
  callIds: Set<string>;
}

/**
 * Merges a later record of the same response into its message, skipping blocks already there. Linear
 * in what is merged: a gateway that gives every response one id, with no request id, makes one message
 * of all of them (20,000 records took 90 s when each merge searched the whole message).
 */
function merge(into: Message, more: Message, merged: Merged): void {
  if (more.content !== '' && !merged.lines.has(more.content)) {
    into.content = into.content === '' ? more.content : `${into.content}\n${more.content}`;
    for (const line of more.content.split('\n')) merged.lines.add(line);
  }
  for (const c of more.toolCalls ?? [])
    if (!merged.callIds.has(c.id)) {
      (into.toolCalls ??= []).push(c);
      merged.callIds.add(c.id);
    }
}

function mergedOf(m: Message): Merged {
  return { lines: new Set(m.content.split('\n')), callIds: new Set((m.toolCalls ?? []).map((c) => c.id)) };
}

/** What Claude Code sends in place of a tool result its microcompaction cleared. */
export const CLEARED_TOOL_RESULT = '[Old tool result content cleared]';

/**
 * A `microcompact_boundary`: the calls after it send the tool results it names as a one-line marker
 * (the session file keeps them whole). Counting them whole overstated every later prompt.
 */
function clearToolResults(b: TrajectoryBuilder, r: JsonObject, notes: Notes): void {
  const meta = isObject(r.microcompactMetadata) ? r.microcompactMetadata : undefined;
  const listed = Array.isArray(meta?.compactedToolIds) ? meta.compactedToolIds : [];
  const ids = new Set(listed.filter((id): id is string => typeof id === 'string'));
  let cleared = 0;
  for (const i of ids.size > 0 ? b.live() : []) {
    const m = b.messages[i]!;
    if (m.role !== 'tool' || m.toolCallId === undefined || !ids.has(m.toolCallId)) continue;
    // The marker replaces the whole result, its images too.
    const { mediaTokens: _images, ...kept } = m;
    b.replace(i, { ...kept, content: CLEARED_TOOL_RESULT });
    cleared++;
  }
  if (cleared > 0)
    notes.add(
      'microcompact',
      (n) =>
        `${plural(n, 'tool result')} cleared by microcompaction: the calls after it count Claude Code's marker ${JSON.stringify(CLEARED_TOOL_RESULT)} in its place`,
      cleared,
    );
}

/** One run (the main conversation or one sub-agent) from its records, in order. */
export function readRun(records: JsonObject[], notes: Notes, sidechain: boolean): ImportedRun {
  const b = new TrajectoryBuilder();
  const responses = new Map<string, { message: Message; call: number; merged?: Merged }>();
  let sawTask = false;
  let model: string | undefined; // the first named: Claude Code can run other models through a proxy
  const pauses = new CallPauses();
  for (const r of records) {
    if (isCompactionStart(r)) {
      b.reset();
      responses.clear();
      if (r.type === 'system') continue;
    }
    const m = isObject(r.message) ? r.message : undefined;
    if (r.type === 'assistant' && m) {
      if (m.model === '<synthetic>' || r.isApiErrorMessage === true) {
        notes.add(
          'synthetic',
          (n) => `${plural(n, 'synthetic assistant message')} (API errors, interruptions) not replayed as calls`,
        );
        continue;
      }
      model ??= modelName(m.model);
      const message = assistantMessage(m.content, `line ${String(r.uuid ?? '')}`, notes);
      // One response's records share its message id and request id; a gateway that gives every response
      // the same message id still sends a request id of its own per request.
      const id =
        typeof m.id === 'string' ? (typeof r.requestId === 'string' ? `${m.id}:${r.requestId}` : m.id) : undefined;
      // Sanitised files give every record the same placeholder ids: records are one response only when
      // their prompt sizes agree too (one request has one prompt), and a person's prompt ends it.
      const recorded = recordedOf(r, m, notes);
      const seen = id !== undefined ? responses.get(id) : undefined;
      const before = seen ? b.calls[seen.call]!.recorded?.inputTokens : undefined;
      const size = recorded?.inputTokens;
      if (seen && (before === undefined || size === undefined || before === size)) {
        seen.merged ??= mergedOf(seen.message);
        merge(seen.message, message, seen.merged);
        if (recorded) b.calls[seen.call]!.recorded = { ...b.calls[seen.call]!.recorded, ...recorded };
        continue;
      }
      const call = b.call(b.push(message), recorded);
      const idle = pauses.call(r.timestamp);
      if (idle !== undefined) b.calls[call]!.idleBefore = idle;
      if (id !== undefined) {
        responses.set(id, { message, call });
        // A continued or forked session copies these records, ids and all, into its new file.
        b.calls[call]!.responseId = id;
      }
    } else if (r.type === 'user' && m) {
      pauses.input(r.timestamp);
      const summary = isCompactionStart(r);
      // The sub-agent's task comes from the main agent; a person typed the main session's text.
      // A background task's notice is stamped by Claude Code (`origin.kind`); it is not the person's.
      const notice = isObject(r.origin) && r.origin.kind === 'task-notification';
      const origin = summary
        ? 'agent'
        : r.isMeta === true || notice
          ? 'environment'
          : sidechain && !sawTask
            ? 'agent'
            : undefined;
      for (const msg of userMessages(m.content, 'user record', notes, origin, true)) b.push(msg);
      sawTask = true;
      // A meta record (a hook's reminder) can land between the records of one streamed response: only
      // a new prompt ends the response (splitting it billed its prompt twice).
      if (r.isMeta !== true && !toolResultsOnly(m.content)) responses.clear();
    } else if (r.type === 'system' && r.subtype === 'microcompact_boundary') {
      clearToolResults(b, r, notes);
    } else if (r.type === 'attachment' && isObject(r.attachment)) {
      pauses.input(r.timestamp);
      readAttachment(b, r.attachment, notes);
    } else if (!IGNORED.has(String(r.type))) {
      notes.add(
        `type:${String(r.type)}`,
        (n) =>
          `${plural(n, 'record')} of type ${JSON.stringify(r.type)} not replayed (not known to be sent to the model)`,
      );
    }
  }
  // An id several calls share (placeholders of a sanitised file) names none of them: it cannot find
  // their copies in other logs either.
  const uses = new Map<string, number>();
  for (const c of b.calls) if (c.responseId !== undefined) uses.set(c.responseId, (uses.get(c.responseId) ?? 0) + 1);
  let shared = 0;
  for (const c of b.calls)
    if (c.responseId !== undefined && (uses.get(c.responseId)! > 1 || /redacted/i.test(c.responseId))) {
      delete c.responseId;
      shared++;
    }
  if (shared > 0)
    notes.add(
      'shared-ids',
      (n) =>
        `${plural(n, 'call')} with a redacted or shared message id: told apart by prompt size and turn, and not matched with copies in other logs`,
      shared,
    );
  return { format: 'claude-code', ...(model ? { model } : {}), messages: b.messages, calls: b.calls };
}

/** A user record that only returns tool results (the agent's turn goes on); anything else is a new prompt. */
function toolResultsOnly(content: Json | undefined): boolean {
  return Array.isArray(content) && content.length > 0 && content.every((c) => isObject(c) && c.type === 'tool_result');
}

/** Sidechain records grouped by the sub-agent run they belong to (the root of their parent chain). */
function sidechainRuns(records: JsonObject[]): JsonObject[][] {
  const byUuid = new Map<string, JsonObject>();
  for (const r of records) if (typeof r.uuid === 'string') byUuid.set(r.uuid, r);
  // Roots are remembered for every record on a walk: a long chain is walked once, not once per record.
  const roots = new Map<JsonObject, JsonObject>();
  const root = (r: JsonObject): JsonObject => {
    const walked: JsonObject[] = [];
    let cur = r;
    let found: JsonObject | undefined;
    for (let guard = 0; guard < records.length; guard++) {
      found = roots.get(cur);
      if (found) break;
      walked.push(cur);
      if (typeof cur.parentUuid !== 'string' || !byUuid.has(cur.parentUuid)) break;
      cur = byUuid.get(cur.parentUuid)!;
    }
    const top = found ?? cur;
    for (const w of walked) roots.set(w, top);
    return top;
  };
  const groups = new Map<JsonObject | string, JsonObject[]>();
  for (const r of records) {
    const key = typeof r.agentId === 'string' ? r.agentId : (parentToolUse(r) ?? root(r));
    const g = groups.get(key) ?? [];
    g.push(r);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** Claude Code 2.1 and later keep sub-agents and compaction calls in files of their own. */
function keepsCallsApart(records: JsonObject[]): boolean {
  return records.some((r) => {
    const v = typeof r.version === 'string' ? /^(\d+)\.(\d+)\./.exec(r.version) : null;
    return v !== null && (Number(v[1]) > 2 || (Number(v[1]) === 2 && Number(v[2]) >= 1));
  });
}

/**
 * Sub-agents this file only mirrors (`progress` records of kind `agent_progress`): their calls are in
 * `<session>/subagents/agent-<id>.jsonl`, replayed only with the folder. Said, not silently left out.
 */
function noteSubagentsElsewhere(records: JsonObject[], side: JsonObject[], notes: Notes): void {
  const here = new Set(side.map((r) => r.agentId).filter((id) => typeof id === 'string'));
  const elsewhere = new Set<string>();
  for (const r of records) {
    const data = r.type === 'progress' && isObject(r.data) ? r.data : undefined;
    if (data?.type === 'agent_progress' && typeof data.agentId === 'string' && !here.has(data.agentId))
      elsewhere.add(data.agentId);
  }
  if (elsewhere.size > 0)
    notes.say(
      `${plural(elsewhere.size, 'sub-agent')} ran in ${elsewhere.size === 1 ? 'a file' : 'files'} of ${elsewhere.size === 1 ? 'its' : 'their'} own (<session>/subagents/agent-<id>.jsonl), not in this one: replay the project folder to count ${elsewhere.size === 1 ? 'it' : 'them'}`,
    );
}

export const claudeCode: Importer = {
  name: 'Claude Code',
  detect: (input) =>
    recordsOf(input).some(isClaudeCodeRecord) && !recordsOf(input).some((r) => typeof r.role === 'string'),
  read(input, notes) {
    const records = recordsOf(input);
    if (input.kind === 'lines') {
      noteBadLines(notes, input.bad);
    }
    const conversational = records.filter((r) => r.type === 'user' || r.type === 'assistant');
    if (conversational.length === 0) {
      if (records.length > 0 && records.every((r) => r.type === 'summary'))
        fail(
          'only session summaries, no conversation (Claude Code writes these beside a session)',
          'Claude Code summaries only (no conversation)',
        );
      fail('no user or assistant records', 'no model calls');
    }
    const main = records.filter((r) => !isSubagentRecord(r));
    const runs: ImportedRun[] = [];
    if (main.some((r) => r.type === 'user' || r.type === 'assistant')) {
      const { path, abandoned } = activePath(main);
      if (abandoned > 0)
        notes.add(
          'abandoned',
          (n) => `${plural(n, 'message')} on abandoned branches (rewound or edited) not replayed`,
          abandoned,
        );
      runs.push(runMedia(notes, () => readRun(path, notes, false)));
    }
    const side = records.filter(isSubagentRecord);
    for (const group of sidechainRuns(side)) {
      if (isCompactionAgent(group) && continuesElsewhere(group)) {
        // Its prompt was the main conversation: joined with it here, or by the loader from the session
        // file beside its folder; never counted from its own few records.
        const joined = compactionRun(main, group);
        runs.push(
          joined ?? { ...runMedia(notes, () => readRun(activePath(group).path, notes, true)), compactionOf: group },
        );
        continue;
      }
      runs.push(runMedia(notes, () => readRun(activePath(group).path, notes, true)));
    }
    const compactions = records.filter((r) => r.type === 'system' && r.subtype === 'compact_boundary').length;
    if (compactions > 0)
      notes.say(
        `${plural(compactions, 'compaction')}: each starts a new context from its summary` +
          (keepsCallsApart(records) &&
          !side.some((r) => typeof r.agentId === 'string' && r.agentId.startsWith('acompact-'))
            ? `; the call that wrote each summary is kept in <session>/subagents/agent-acompact-*.jsonl: replay the project folder to count it`
            : ''),
      );
    noteSubagentsElsewhere(records, side, notes);
    noteStreamJson(records, notes);
    notes.say(
      "the system prompt, tool definitions and most hook output are not in Claude Code's session file: raw counts are a lower bound",
    );
    return runs;
  },
};
