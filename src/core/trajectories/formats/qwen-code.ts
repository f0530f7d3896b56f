// Qwen Code sessions (`~/.qwen/projects/<project>/chats/<session>.jsonl`): one `ChatRecord` per line,
// `{uuid, parentUuid, sessionId, type, subtype?, message?, usageMetadata?, systemPayload?}`. `message` is
// the Gemini `Content` (`{role: 'user' | 'model', parts}`) as it was sent; `user`, `assistant` and
// `tool_result` records are the conversation, `system` records the CLI's own events. The file is a tree:
// the session is the path from its last message back through `parentUuid` (a rewind starts a branch),
// and a record written in several parts repeats its uuid. A `chat_compression` record's
// `compressedHistory` replaces what the model sees: later calls send it and what follows. The records
// share Claude Code's keys (uuid, sessionId, type, message), not its messages: read as Claude Code's,
// every text was empty.
import { firstModel } from '../model-name';
import type { Message, ToolCall } from '../../messages';
import { jsonOrNote } from '../../json-depth';
import { TrajectoryBuilder } from '../builder';
import { BAD_COUNT, isObject, optionalCount, type Json, type JsonObject } from '../json';
import { noteBadLines, plural, runMedia, type Notes } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import type { Input } from '../read/source';
import type { RecordedUsage } from '../types';
import { partsText, responseText } from './gemini-cli';

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
const CONVERSATION = new Set(['user', 'assistant', 'tool_result']);
/** `user` records a person wrote: a prompt, a scheduled prompt, words typed while the agent ran. */
const PERSON_SUBTYPES = new Set([undefined, 'cron', 'mid_turn_user_message']);

type Origin = NonNullable<Message['origin']>;

const isRecord = (v: Json): v is JsonObject =>
  isObject(v) &&
  typeof v.uuid === 'string' &&
  typeof v.sessionId === 'string' &&
  typeof v.type === 'string' &&
  RECORD_TYPES.has(v.type);

/** A Gemini `Content`: what tells these records from Claude Code's (whose messages hold `content`). */
const hasContent = (r: JsonObject) => isObject(r.message) && Array.isArray(r.message.parts);

function recordsOf(input: Input): JsonObject[] {
  const list =
    input.kind === 'lines'
      ? input.records
      : input.kind === 'document'
        ? Array.isArray(input.value)
          ? input.value
          : [input.value]
        : [];
  return list.filter(isRecord);
}

/** Records written in parts under one uuid, merged as Qwen Code merges them: parts appended, latest usage. */
function merged(records: JsonObject[]): Map<string, JsonObject> {
  const byUuid = new Map<string, JsonObject>();
  for (const r of records) {
    const uuid = r.uuid as string;
    const seen = byUuid.get(uuid);
    if (!seen) {
      byUuid.set(uuid, { ...r });
      continue;
    }
    if (isObject(r.message) && Array.isArray(r.message.parts)) {
      const base = isObject(seen.message) ? seen.message : r.message;
      const parts = base !== r.message && Array.isArray(base.parts) ? base.parts : [];
      seen.message = { ...base, parts: [...parts, ...r.message.parts] };
    }
    if (r.usageMetadata !== undefined) seen.usageMetadata = r.usageMetadata;
  }
  return byUuid;
}

/**
 * The records the model saw, in order: the path from the last message back to the root. Walking from
 * the last message (not the last line) keeps the session when the CLI re-writes its metadata at the end.
 */
function activePath(records: JsonObject[]): { path: JsonObject[]; abandoned: number } {
  const byUuid = merged(records);
  const last = records.findLast((r) => CONVERSATION.has(r.type as string));
  const chain: JsonObject[] = [];
  const visited = new Set<string>();
  for (let uuid = last?.uuid; typeof uuid === 'string' && !visited.has(uuid);) {
    visited.add(uuid);
    const r = byUuid.get(uuid);
    if (!r) break;
    chain.push(r);
    uuid = r.parentUuid;
  }
  let abandoned = 0;
  for (const [uuid, r] of byUuid) if (!visited.has(uuid) && CONVERSATION.has(r.type as string)) abandoned++;
  return { path: chain.reverse(), abandoned };
}

function usageOf(v: Json | undefined, notes: Notes): RecordedUsage | undefined {
  if (!isObject(v)) return undefined;
  const figures = [
    v.promptTokenCount,
    v.toolUsePromptTokenCount,
    v.cachedContentTokenCount,
    v.candidatesTokenCount,
    v.thoughtsTokenCount,
    v.totalTokenCount,
  ].map(optionalCount);
  // A figure that is not a token count makes every sum with it wrong: the reply's usage is left out.
  if (figures.includes(BAD_COUNT)) return { unreadableTokens: true };
  const [prompt, tool, cached, candidates, thoughts, total] = figures as (number | undefined)[];
  const u: RecordedUsage = {};
  // Gemini's convention: cached tokens are inside the prompt, the tool-use prompt beside it.
  if (prompt !== undefined) u.inputTokens = prompt + (tool ?? 0);
  if (cached !== undefined) u.cachedTokens = cached;
  const output = outputOf(candidates, thoughts, (prompt ?? 0) + (tool ?? 0), total);
  if (output === 'unknown')
    notes.add(
      'qwen-thoughts-unknown',
      (n) =>
        `${n === 1 ? "1 reply's" : `${n} replies'`} output tokens not known: its thought tokens may or may not be ` +
        "inside its candidate tokens (Qwen Code writes an OpenAI-compatible reply's reasoning inside them, " +
        "Gemini's beside them) and the record's total does not tell which",
    );
  else if (output !== undefined) u.outputTokens = output;
  return Object.keys(u).length > 0 ? u : undefined;
}

/**
 * The reply's output tokens. Gemini counts thoughts beside the candidates (and in the total); Qwen Code's
 * OpenAI converter writes `completion_tokens`, reasoning included, as the candidates and the reasoning
 * (or its estimate) again as thoughts, with `total_tokens` as the total. The total tells them apart.
 */
function outputOf(
  candidates: number | undefined,
  thoughts: number | undefined,
  prompt: number,
  total: number | undefined,
): number | 'unknown' | undefined {
  if (!thoughts) return candidates;
  if (candidates === undefined || thoughts > candidates) return (candidates ?? 0) + thoughts; // only Gemini's
  if (total === prompt + candidates + thoughts) return candidates + thoughts;
  if (total === prompt + candidates) return candidates;
  return 'unknown';
}

const partsOf = (content: JsonObject): Json[] => (Array.isArray(content.parts) ? content.parts : []);

/** A `model` Content: its text and function calls (thoughts are not counted, said once). */
function modelMessage(content: JsonObject, where: string, notes: Notes): Message {
  const text: Json[] = [];
  const calls: ToolCall[] = [];
  partsOf(content).forEach((p, i) => {
    if (isObject(p) && p.thought === true)
      notes.add(
        'qwen-thought',
        (n) =>
          `${plural(n, 'thought part')} not counted (whether Qwen Code sent them back depends on its version and the model)`,
      );
    else if (isObject(p) && isObject(p.functionCall)) {
      const fc = p.functionCall;
      calls.push({
        id: typeof fc.id === 'string' ? fc.id : `${where}:${i}`,
        name: typeof fc.name === 'string' ? fc.name : '',
        arguments: isObject(fc.args) ? jsonOrNote(fc.args) : '{}',
      });
    } else text.push(p);
  });
  const m: Message = { role: 'assistant', content: partsText(text, notes), origin: 'agent' };
  if (calls.length > 0) m.toolCalls = calls;
  return m;
}

/** A `user` Content: function responses are tool messages, the text between them user messages. */
function userMessages(content: JsonObject, textOrigin: Origin, notes: Notes): Message[] {
  const out: Message[] = [];
  let text: Json[] = [];
  const flush = () => {
    if (text.length > 0) out.push({ role: 'user', content: partsText(text, notes), origin: textOrigin });
    text = [];
  };
  for (const p of partsOf(content)) {
    if (!isObject(p) || !isObject(p.functionResponse)) {
      text.push(p);
      continue;
    }
    flush();
    const fr = p.functionResponse;
    const m: Message = { role: 'tool', content: responseText(fr), origin: 'environment' };
    if (typeof fr.id === 'string') m.toolCallId = fr.id;
    if (typeof fr.name === 'string') m.name = fr.name;
    out.push(m);
  }
  flush();
  return out;
}

/**
 * A history the CLI put in place of the conversation: a compression's (its first user text is the
 * summary the model wrote) or a forked sub-agent's inherited context. Replies in it are not calls.
 */
function pushHistory(b: TrajectoryBuilder, history: Json[], kind: 'compression' | 'inherited', notes: Notes): void {
  let summary = kind === 'compression';
  for (const c of history) {
    if (!isObject(c)) continue;
    if (c.role === 'model') {
      b.push(modelMessage(c, 'history', notes));
      continue;
    }
    // The summary, and a parent's context handed to a sub-agent, were written by an agent.
    const origin: Origin = summary || kind === 'inherited' ? 'agent' : 'person';
    for (const m of userMessages(c, origin, notes)) b.push(m);
    if (partsOf(c).some((p) => !isObject(p) || !isObject(p.functionResponse))) summary = false;
  }
}

/** One run (the session, or one sub-agent) from its records in file order. */
function readRun(records: JsonObject[], notes: Notes, sidechain: boolean): ImportedRun {
  const { path, abandoned } = activePath(records);
  if (abandoned > 0)
    notes.add('abandoned', (n) => `${plural(n, 'message')} on abandoned branches (rewound) not replayed`, abandoned);
  const b = new TrajectoryBuilder();
  let sawTask = false;
  for (const r of path) {
    const payload = isObject(r.systemPayload) ? r.systemPayload : undefined;
    if (r.type === 'system') {
      if (r.subtype === 'chat_compression' && Array.isArray(payload?.compressedHistory)) {
        b.reset();
        pushHistory(b, payload.compressedHistory, 'compression', notes);
        notes.add('compression', (n) => `${plural(n, 'compression')}: each starts a new context from its history`);
      } else if (r.subtype === 'agent_bootstrap' && Array.isArray(payload?.history)) {
        b.reset();
        pushHistory(b, payload.history, 'inherited', notes);
        sawTask = true;
      }
      continue;
    }
    if (r.subtype === 'realtime_message' || r.subtype === 'code_mode_tool_result') {
      notes.add(
        `subtype:${String(r.subtype)}`,
        (n) => `${plural(n, 'record')} of subtype ${String(r.subtype)} not sent as history: skipped`,
      );
      continue;
    }
    const where = `record ${String(r.uuid)}`;
    const content = isObject(r.message) ? r.message : undefined;
    if (!content) {
      if (r.type === 'assistant')
        notes.add('no-message', (n) => `${plural(n, 'assistant record')} without a message not replayed as calls`);
      continue;
    }
    if (r.type === 'assistant') {
      b.call(b.push(modelMessage(content, where, notes)), usageOf(r.usageMetadata, notes));
      continue;
    }
    // A sub-agent's task comes from the agent that started it; a person typed the session's prompts.
    const origin: Origin =
      r.type === 'tool_result'
        ? 'environment'
        : !PERSON_SUBTYPES.has(r.subtype as string | undefined)
          ? 'environment'
          : sidechain && !sawTask
            ? 'agent'
            : 'person';
    for (const m of userMessages(content, origin, notes)) b.push(m);
    if (r.type === 'user') sawTask = true;
  }
  const model = firstModel(path, (r) => (r.type === 'assistant' ? r.model : undefined));
  return { format: 'qwen-code', ...(model ? { model } : {}), messages: b.messages, calls: b.calls };
}

export const qwenCode: Importer = {
  name: 'Qwen Code',
  detect: (input) => recordsOf(input).some(hasContent),
  read(input, notes) {
    if (input.kind === 'lines') noteBadLines(notes, input.bad);
    const records = recordsOf(input);
    const runs: ImportedRun[] = [];
    const main = records.filter((r) => r.isSidechain !== true);
    if (main.some((r) => CONVERSATION.has(r.type as string)))
      runs.push(runMedia(notes, () => readRun(main, notes, false)));
    const agents = new Map<string, JsonObject[]>();
    for (const r of records)
      if (r.isSidechain === true) {
        const key = typeof r.agentId === 'string' ? r.agentId : '';
        const group = agents.get(key) ?? [];
        group.push(r);
        agents.set(key, group);
      }
    for (const group of agents.values()) runs.push(runMedia(notes, () => readRun(group, notes, true)));
    notes.say('Qwen Code does not record its system prompt or tool declarations: raw counts are a lower bound');
    return runs;
  },
};
