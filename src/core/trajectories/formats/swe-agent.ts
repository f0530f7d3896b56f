// SWE-agent `*.traj`: `history` (every message in full) beside `trajectory`, one entry per step
// ({action, observation, response, thought, query}). What a call sent is not always the history: a
// history processor (`last_n_observations`, the default configuration's, and others) replaces old
// observations with a line such as "Old environment output: (5 lines omitted)" before each call, and
// `history` keeps them whole. So where the steps record the prompt sent (`query` since 1.0, the prompt
// of that step's call; `messages` in earlier files, the prompt after the step, which the next call
// sent), each call sends exactly that prompt; messages equal to the history's in the same place are
// the history's, others are copies sent only there. Where they do not and the file names a history
// processor that shortens prompts (or names none), raw counts the full history and says so.
// History-only extracts drop `trajectory`; files without `history` are read from the steps' prompts.
// When `history` stops short of the steps (the final `submit` step is often only in `trajectory`), the
// missing steps are added from `trajectory`. Observations arrive as `user` messages without function
// calling and as `tool` messages with it; either way they are the environment's, and only the first
// user message (the task) is the person's. A RetryAgent file holds its runs in `attempts`: each is
// replayed as a run of its own.
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import type { MessageRange } from '../types';
import { TrajectoryBuilder } from '../builder';
import { fail } from '../errors';
import { asObject, isObject, optionalCount, optionalNumber, type Json, type JsonObject } from '../json';
import { Notes, plural, noteUnknownRole } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import { chatMessage, chatRole, chatToolCalls } from './chat';

function isSweAgent(doc: Json): doc is JsonObject {
  if (!isObject(doc)) return false;
  if (isRetry(doc)) return true;
  if (Array.isArray(doc.history))
    return doc.history.length === 0 || (isObject(doc.history[0]) && typeof doc.history[0].role === 'string');
  return (
    Array.isArray(doc.trajectory) &&
    !('messages' in doc) &&
    isObject(doc.trajectory[0]) &&
    'action' in doc.trajectory[0]
  );
}

/** A RetryAgent file: `attempts`, each a whole run (and, when one was chosen, a copy of it beside them). */
function isRetry(doc: JsonObject): boolean {
  return (
    Array.isArray(doc.attempts) &&
    doc.attempts.length > 0 &&
    doc.attempts.every((a) => isObject(a) && !isObject(a.attempts) && !Array.isArray(a.attempts) && isSweAgent(a))
  );
}

function isDemo(m: JsonObject): boolean {
  return m.is_demo === true || m.message_type === 'demonstration';
}

/** Who wrote a chat message of a SWE-agent history: the first non-demonstration user message is the task. */
function originOf(m: JsonObject, role: Message['role'], sawTask: boolean): Message['origin'] {
  if (role === 'tool') return 'environment';
  if (role !== 'user' || isDemo(m)) return 'agent';
  return sawTask ? 'environment' : 'person';
}

/** Reads a history; `at[j]` is the index of the message read from its entry `j` (none when dropped). */
function readHistory(list: Json[], b: TrajectoryBuilder, notes: Notes, where: string, at: number[]): void {
  let sawTask = false;
  list.forEach((v, i) => {
    const m = asObject(v, `${where} ${i}`);
    const role = chatRole(m);
    if (role === undefined) {
      noteUnknownRole(notes, m.role);
      return;
    }
    const origin = originOf(m, role, sawTask);
    if (role === 'user' && !isDemo(m)) sawTask = true;
    const index = b.push(chatMessage(m, role, `${where} ${i}`, notes, origin));
    at[i] = index;
    if (role === 'assistant' && !isDemo(m)) b.call(index);
  });
}

/**
 * The prompt each call sent, where every step records one: `query` (SWE-agent 1.0 on) is the prompt of
 * the step's own call; `messages` (earlier files) is the prompt after the step, which the next call sent
 * (the first call's is the history before the first reply).
 */
function recordedPrompts(steps: JsonObject[] | undefined): (Json[] | undefined)[] | undefined {
  if (!steps || steps.length === 0) return undefined;
  if (steps.every((s) => Array.isArray(s.query))) return steps.map((s) => s.query as Json[]);
  if (steps.every((s) => Array.isArray(s.messages)))
    return [undefined, ...steps.slice(0, -1).map((s) => s.messages as Json[])];
  return undefined;
}

function sameMessage(a: Message, b: Message): boolean {
  return (
    a.role === b.role &&
    a.content === b.content &&
    a.toolCallId === b.toolCallId &&
    a.name === b.name &&
    JSON.stringify(a.toolCalls) === JSON.stringify(b.toolCalls)
  );
}

/** Consecutive indices as half-open ranges. */
function rangesOf(indices: readonly number[]): MessageRange[] {
  const out: [number, number][] = [];
  for (const i of indices) {
    const last = out[out.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else out.push([i, i + 1]);
  }
  return out;
}

/**
 * Makes each call send the prompt its step recorded. A prompt message equal to the history's in the same
 * place is that message; another (an observation the history processor shortened) is a copy appended to
 * the messages and sent only where prompts hold it (one copy per distinct recorded object: the reader
 * shares identical prompt messages between steps). Returns how many calls sent something other than the
 * history, or undefined when the prompts do not line up with the calls (each must hold the previous
 * reply and not its own).
 */
function sendRecordedPrompts(
  b: TrajectoryBuilder,
  prompts: readonly (Json[] | undefined)[],
  at: readonly number[],
): number | undefined {
  const scratch = new Notes(); // the history's messages already said what was read differently
  const converted = new Map<JsonObject, Message>();
  const copies = new Map<JsonObject, number>();
  const contexts: (MessageRange[] | undefined)[] = [];
  let differing = 0;
  for (const [k, prompt] of prompts.entries()) {
    const call = b.calls[k];
    if (!prompt || !call || call.output === undefined) continue;
    const indices: number[] = [];
    let sawTask = false;
    for (const [j, v] of prompt.entries()) {
      const raw = asObject(v, `trajectory step ${k}: prompt message ${j}`);
      const role = chatRole(raw);
      if (role === undefined) continue;
      let m = converted.get(raw);
      if (!m) {
        m = chatMessage(raw, role, `trajectory step ${k}: prompt message ${j}`, scratch, originOf(raw, role, sawTask));
        converted.set(raw, m);
      }
      if (role === 'user' && !isDemo(raw)) sawTask = true;
      const h = at[j];
      if (h !== undefined && sameMessage(b.messages[h]!, m)) indices.push(h);
      else {
        let copy = copies.get(raw);
        if (copy === undefined) {
          copy = b.push(m);
          copies.set(raw, copy);
        }
        indices.push(copy);
      }
    }
    const previous = b.calls[k - 1]?.output;
    if (indices.includes(call.output) || (previous !== undefined && !indices.includes(previous))) return undefined;
    const context = rangesOf(indices);
    if (JSON.stringify(context) !== JSON.stringify(call.context)) differing++;
    contexts[k] = context;
  }
  contexts.forEach((context, k) => {
    if (context) b.calls[k] = { ...b.calls[k]!, context };
  });
  return differing;
}

/** The agent section of a file's `replay_config` (kept as a JSON string or an object), if any. */
function agentConfig(doc: JsonObject): JsonObject | undefined {
  let config: Json | undefined = doc.replay_config;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as Json;
    } catch {
      return undefined;
    }
  }
  return isObject(config) && isObject(config.agent) ? config.agent : undefined;
}

/** The model `replay_config` names (`agent.model.name`), when it names one. */
function configModel(doc: JsonObject): { model?: string } {
  const agent = agentConfig(doc);
  const model = modelName(agent && isObject(agent.model) ? agent.model.name : undefined);
  return model !== undefined ? { model } : {};
}

/** The history processors a file's `replay_config` names: [] for the default, undefined when it says nothing. */
function historyProcessors(doc: JsonObject): string[] | undefined {
  const agent = agentConfig(doc);
  if (!agent) return undefined;
  const list = Array.isArray(agent.history_processors)
    ? agent.history_processors
    : agent.history_processor !== undefined && agent.history_processor !== null
      ? [agent.history_processor]
      : [];
  return list.map((p) => (typeof p === 'string' ? p : isObject(p) ? String(p.type ?? p.name ?? '?') : '?'));
}

/** History processors that send every message as the history keeps it (cache marks and tags only). */
const KEEPS_HISTORY = new Set([
  'default',
  'DefaultHistoryProcessor',
  'cache_control',
  'CacheControlHistoryProcessor',
  'tag_tool_call_observations',
  'TagToolCallObservations',
]);

/** A step as an assistant message: its response (thought and action), with its tool calls if kept. */
function stepAction(step: JsonObject, where: string): Message {
  const text =
    typeof step.response === 'string' && step.response !== ''
      ? step.response
      : typeof step.thought === 'string'
        ? step.thought
        : '';
  const m: Message = { role: 'assistant', content: text, origin: 'agent' };
  const calls = chatToolCalls(step.tool_calls, where);
  if (calls) m.toolCalls = calls;
  else if (typeof step.action === 'string' && step.action !== '' && !text.includes(step.action))
    m.content = text === '' ? step.action : `${text}\n${step.action}`;
  return m;
}

function stepObservation(step: JsonObject, after: Message | undefined): Message {
  const content = typeof step.observation === 'string' ? step.observation : '';
  const id = after?.toolCalls?.[0]?.id;
  return id !== undefined
    ? { role: 'tool', content, toolCallId: id, origin: 'environment' }
    : { role: 'user', content, origin: 'environment' };
}

export const sweAgent: Importer = {
  name: 'SWE-agent',
  detect: (input) => input.kind === 'document' && isSweAgent(input.value),
  read(input, notes) {
    const doc = input.kind === 'document' && isObject(input.value) ? input.value : {};
    if (!isRetry(doc)) return [readRun(doc, notes)];
    // RetryAgent (sweagent/agent/agents.py): the chosen attempt is copied to the top level, where
    // `info.model_stats` then holds the totals of all attempts. Each attempt is replayed as its own run,
    // with its own recorded cost; the copy is left out.
    const attempts = (doc.attempts as Json[]).filter(isObject);
    const info = isObject(doc.info) ? doc.info : undefined;
    const best = optionalNumber(info?.best_attempt_idx);
    notes.say(
      `a RetryAgent file: each of its ${plural(attempts.length, 'attempt')} is replayed as its own run` +
        (best !== undefined && Number.isInteger(best) && attempts[best] ? ` (#${best + 1} was chosen)` : '') +
        '; the calls of its reviewer or chooser (`info.rloop_model_stats`) are not replayed',
    );
    return attempts.map((a, i) => {
      const own = new Notes();
      const run = readRun(a, own);
      const warnings = own.list().map((w) => `attempt ${i + 1}: ${w}`);
      // Its notes are its own, so are the media they counted (the file's notes never see them).
      return { ...run, uncountedMedia: own.media, ...(warnings.length > 0 ? { warnings } : {}) };
    });
  },
};

/** One SWE-agent run: a whole `.traj`, a history-only extract, or one attempt of a RetryAgent file. */
function readRun(doc: JsonObject, notes: Notes): ImportedRun {
  const steps = Array.isArray(doc.trajectory) ? doc.trajectory.filter(isObject) : undefined;
  const b = new TrajectoryBuilder();
  const at: number[] = [];
  const prompts = recordedPrompts(steps);
  if (Array.isArray(doc.history)) readHistory(doc.history, b, notes, 'history message', at);
  else {
    const last = steps?.[steps.length - 1];
    if (!last || !Array.isArray(last.query)) fail('neither a history nor trajectory steps with their prompt');
    readHistory(last.query, b, notes, `trajectory step ${steps!.length - 1}: query`, at);
    b.call(b.push(stepAction(last, `trajectory step ${steps!.length - 1}`)));
  }
  // Steps the history stops short of: each was a call over everything before it.
  const missing = steps ? steps.length - b.calls.length : 0;
  if (Array.isArray(doc.history) && steps && missing > 0) {
    for (let k = steps.length - missing; k < steps.length; k++) {
      const previous = steps[k - 1];
      if (previous && b.last?.role === 'assistant') b.push(stepObservation(previous, b.last));
      b.call(b.push(stepAction(steps[k]!, `trajectory step ${k}`)));
    }
    notes.add('swe-missing', (n) => `${plural(n, 'step')} missing from \`history\` taken from \`trajectory\``, missing);
  }
  const processors = historyProcessors(doc);
  const shortening = processors?.filter((p) => !KEEPS_HISTORY.has(p));
  const named = shortening && shortening.length > 0 ? ` (\`${shortening.join('`, `')}\`)` : '';
  const differing = prompts ? sendRecordedPrompts(b, prompts, at) : undefined;
  if (differing !== undefined && differing > 0)
    notes.say(
      `raw is what each call sent as its step recorded it: SWE-agent's history processor${named} had shortened old observations in ${plural(differing, 'call')}, which \`history\` keeps whole`,
    );
  else if (differing === undefined && (shortening === undefined || shortening.length > 0))
    notes.say(
      (prompts
        ? "the steps' recorded prompts do not line up with `history`, so "
        : 'the steps do not record the prompts sent, so ') +
        (shortening === undefined
          ? "raw counts the full `history`: the file does not name SWE-agent's history processor, and its default configurations sent only the last 5 observations whole, so raw may be more than was sent"
          : `raw counts the full \`history\`, more than was sent: SWE-agent's history processor${named} shortened old observations before each call`),
    );
  const stats = isObject(doc.info) && isObject(doc.info.model_stats) ? doc.info.model_stats : undefined;
  const total = recordedCost(stats, b.calls.length, notes);
  return {
    format: steps ? 'swe-agent' : 'swe-agent-history',
    ...configModel(doc),
    messages: b.messages,
    calls: b.calls,
    ...(total !== undefined ? { recordedCost: total } : {}),
  };
}

/**
 * The run's cost from `model_stats`, set beside the calls the log kept. `api_calls` counts every query:
 * a reply SWE-agent rejected (format error, blocked command) is queried again and only the retry enters
 * `history`, and an extract may lack the last steps, so those calls are in the cost but not replayed. A demonstration replayed without a
 * model records no calls and $0: that is no price of the calls it holds, so no cost is read.
 */
function recordedCost(stats: JsonObject | undefined, kept: number, notes: Notes): number | undefined {
  const cost = optionalNumber(stats?.instance_cost);
  const apiCalls = optionalCount(stats?.api_calls);
  if (typeof apiCalls !== 'number' || kept === 0) return cost;
  if (apiCalls === 0) {
    notes.say(
      `\`model_stats\` records no API calls (the run was replayed without a model): its cost of $${cost ?? 0} is not read as recorded`,
    );
    return undefined;
  }
  if (apiCalls > kept)
    notes.say(
      `\`model_stats\` counts ${apiCalls} API calls, the log keeps ${kept}: the others (replies SWE-agent rejected ` +
        'and queried again, or steps the file left out) are in the recorded cost but not replayed',
    );
  return cost;
}
