// OpenHands SDK (V1): a conversation is a list of typed events (`{id, timestamp, source, kind, ...}`;
// kind is the class name). The model saw them as the SDK's View renders them: the system prompt, user
// and agent messages, one assistant message per model response (its ActionEvents share an
// `llm_response_id`), tool messages for observations, rejections and agent errors; a Condensation
// forgets the events it names and puts its summary at `summary_offset`. Events form a tree (`parent_id`,
// or the previous event for events written before the tree existed); only the active branch is replayed.
// Per-call usage lives apart from the events, in Metrics `token_usages` keyed by response id: in a
// conversation folder's base_state.json (`stats.usage_to_metrics`) and in evaluation outputs (`metrics`).
import { commandText } from './openhands-observation';
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import { contentText } from '../content';
import { fail } from '../errors';
import { isObject, optionalNumber, type Json, type JsonObject } from '../json';
import { noteBadLines, plural, runMedia, type Notes } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import type { MessageRange, ModelCall } from '../types';
import { chatRole, chatToolCalls } from './chat';
import { activeBranch, NOT_IN_TREE, type SdkHead } from './openhands-sdk-tree';
import { usageFromMetrics, type SdkUsage } from './openhands-sdk-usage';

const EVENT_KIND = /(Event|Observation|Condensation|CondensationRequest)$/;

/** One SDK event: an id, a source and the class name as `kind`. */
export function isSdkEvent(v: unknown): v is JsonObject {
  return (
    isObject(v) &&
    typeof v.kind === 'string' &&
    EVENT_KIND.test(v.kind) &&
    typeof v.source === 'string' &&
    typeof v.id === 'string'
  );
}

/** A conversation's base_state.json: the agent, its settings and the usage, without the events. */
export function isSdkConversationState(v: unknown): v is JsonObject {
  return (
    isObject(v) &&
    isObject(v.agent) &&
    typeof v.agent.kind === 'string' &&
    ('execution_status' in v || 'stats' in v || 'max_iterations' in v)
  );
}

/** An evaluation output (OpenHands benchmarks' `EvalOutput`): `{instance_id, history: [events], metrics}`. */
function isEvalRun(v: unknown): v is JsonObject {
  return isObject(v) && Array.isArray(v.history) && v.history.length > 0 && v.history.some(isSdkEvent);
}

/** Evaluation outputs, one per line; an instance that failed before its first event has an empty history. */
const areEvalRuns = (records: readonly Json[]): boolean =>
  records.some(isEvalRun) && records.every((r) => isObject(r) && Array.isArray(r.history));

const isEventList = (v: unknown): v is Json[] =>
  Array.isArray(v) && v.length > 0 && v.some(isSdkEvent) && v.every((e) => isObject(e) && typeof e.kind === 'string');

/** Written beside the events for clients, never sent to a model. */
const NOT_SENT = new Set([
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'CondensationRequest',
  'PauseEvent',
  'InterruptEvent',
  'TokenEvent',
  'StreamingDeltaEvent',
  'LLMCompletionLogEvent',
  'HookExecutionEvent',
  'ServerErrorEvent',
]);

/** An ACP agent (Claude Code, Codex, Gemini CLI driven over ACP) makes its model calls out of sight. */
export function refuseAcp(): never {
  return fail(
    "an OpenHands ACP agent's conversation: the external agent (Claude Code, Codex, Gemini CLI, ...) made " +
      "the model calls and these events do not hold them; replay that agent's own log",
    "OpenHands SDK ACP agent conversation (replay the agent's own log)",
  );
}

const ERROR_HEADER = '[An error occurred during execution.]\n';
/** Observations the SDK frames with their command metadata (the terminal tool, named so before 1.0 too). */
const TERMINAL = new Set(['TerminalObservation', 'ExecuteBashObservation']);

const texts = (v: unknown, where: string, notes: Notes): string => contentText(v ?? null, where, notes);

/** Builds messages and calls from the active branch, keeping the View the SDK would have sent. */
function readBranch(
  branch: readonly JsonObject[],
  usage: SdkUsage | undefined,
  notes: Notes,
): Omit<ImportedRun, 'format'> {
  const messages: Message[] = [];
  const calls: ModelCall[] = [];
  /** The View: the events the model sees next, as message indices (a response's actions share one). */
  let view: { id: string; msg: number }[] = [];
  let batch: { response: string; msg: number } | undefined;
  const used = new Set<string>();
  const push = (id: string, m: Message): number => {
    messages.push(m);
    view.push({ id, msg: messages.length - 1 });
    batch = undefined;
    return messages.length - 1;
  };
  const context = (): MessageRange[] => {
    const ranges: [number, number][] = [];
    let prev = -1;
    for (const { msg } of view) {
      if (msg === prev) continue;
      const last = ranges[ranges.length - 1];
      if (last && last[1] === msg) last[1] = msg + 1;
      else ranges.push([msg, msg + 1]);
      prev = msg;
    }
    return ranges.length > 0 ? ranges : [[messages.length, messages.length]];
  };
  /** A model response: the context the View held, then its message. */
  const respond = (id: string, m: Message, response: unknown): number => {
    const ctx = context();
    const msg = push(id, m);
    const call: ModelCall = { context: ctx, output: msg };
    if (typeof response === 'string' && response !== '') call.responseId = response;
    const recorded = typeof response === 'string' ? usage?.byResponse.get(response) : undefined;
    if (recorded) {
      call.recorded = recorded;
      used.add(response as string);
    }
    calls.push(call);
    return msg;
  };
  branch.forEach((e, i) => {
    const kind = e.kind as string;
    const id = e.id as string;
    const where = `event ${i} (${kind})`;
    if (kind === 'SystemPromptEvent') {
      const prompt = isObject(e.system_prompt) ? texts([e.system_prompt], where, notes) : '';
      const dynamic = isObject(e.dynamic_context) ? texts([e.dynamic_context], where, notes) : '';
      push(id, { role: 'system', content: dynamic ? `${prompt}\n${dynamic}` : prompt, origin: 'agent' });
      if (Array.isArray(e.tools) && e.tools.length > 0)
        notes.say("the system prompt's tool definitions are not counted (the events keep them in the SDK's own form)");
    } else if (kind === 'MessageEvent') {
      const m = isObject(e.llm_message) ? e.llm_message : fail(`${where} has no llm_message`);
      const role = chatRole(m);
      const content =
        texts(m.content, where, notes) +
        (Array.isArray(e.extended_content) ? texts(e.extended_content, where, notes) : '');
      if (role === 'assistant') {
        const message: Message = { role, content, origin: 'agent' };
        const toolCalls = chatToolCalls(m.tool_calls, where);
        if (toolCalls) message.toolCalls = toolCalls;
        respond(id, message, e.llm_response_id);
      } else if (role === 'user')
        push(id, { role, content, origin: e.source === 'environment' ? 'environment' : 'person' });
      else if (role === 'system') push(id, { role, content, origin: 'agent' });
      else
        notes.add(
          `sdk-role:${String(m.role)}`,
          (n) => `${plural(n, 'message')} with role ${JSON.stringify(m.role ?? null)} not replayed`,
        );
    } else if (kind === 'ActionEvent') {
      const call = chatToolCalls(isObject(e.tool_call) ? [e.tool_call] : [], where)?.[0];
      if (!call) fail(`${where} has no tool_call`);
      const response = typeof e.llm_response_id === 'string' ? e.llm_response_id : undefined;
      if (batch && response !== undefined && batch.response === response) {
        // Parallel tool calls of one response: one assistant message, one call.
        messages[batch.msg]!.toolCalls!.push(call);
        view.push({ id, msg: batch.msg });
      } else {
        const msg = respond(
          id,
          { role: 'assistant', content: texts(e.thought, where, notes), toolCalls: [call], origin: 'agent' },
          response,
        );
        if (response !== undefined) batch = { response, msg };
      }
      if (typeof e.reasoning_content === 'string' && e.reasoning_content !== '')
        notes.add(
          'sdk-reasoning',
          (n) => `${plural(n, 'reasoning text')} not counted (providers do not take them back as input)`,
        );
    } else if (kind === 'ObservationEvent') {
      const o = isObject(e.observation) ? e.observation : fail(`${where} has no observation`);
      const text = observationText(o, where, notes);
      const content =
        (o.is_error === true ? ERROR_HEADER : '') +
        (TERMINAL.has(String(o.kind)) ? commandText(text, o) : text) +
        (Array.isArray(e.extended_content) ? texts(e.extended_content, where, notes) : '');
      push(id, toolMessage(e, content));
      if (!TERMINAL.has(String(o.kind)))
        notes.say(
          "observations other than the terminal's are counted from their recorded content: a tool's own framing, if it adds one, is not reproduced",
        );
    } else if (kind === 'UserRejectObservation') {
      const reason = typeof e.rejection_reason === 'string' ? e.rejection_reason : 'User rejected the action';
      push(id, toolMessage(e, `Action rejected: ${reason}`));
    } else if (kind === 'AgentErrorEvent') {
      push(id, toolMessage(e, typeof e.error === 'string' ? e.error : ''));
    } else if (kind === 'Condensation') {
      const forgotten = new Set(
        Array.isArray(e.forgotten_event_ids) ? e.forgotten_event_ids.filter((x) => typeof x === 'string') : [],
      );
      view = view.filter((v) => !forgotten.has(v.id));
      batch = undefined;
      const offset = optionalNumber(e.summary_offset);
      if (typeof e.summary === 'string' && offset !== undefined && Number.isInteger(offset)) {
        messages.push({ role: 'user', content: e.summary, origin: 'agent' });
        view.splice(Math.min(offset, view.length), 0, { id: `${id}-summary`, msg: messages.length - 1 });
      }
      notes.add(
        'sdk-condensation',
        (n) => `condensed ${plural(n, 'time')}: later calls forget the events it names and see its summary`,
      );
    } else if (kind === 'CondensationSummaryEvent' && typeof e.summary === 'string') {
      push(id, { role: 'user', content: e.summary, origin: 'agent' });
    } else if (!NOT_SENT.has(kind)) {
      notes.add(
        `sdk-kind:${kind}`,
        (n) => `${plural(n, `"${kind}" event`)} not replayed (a kind this reader does not know)`,
      );
    }
  });
  if (usage) {
    const other = usage.byResponse.size - used.size;
    if (other > 0)
      notes.add(
        'sdk-usage-other',
        (n) =>
          `${plural(n, 'usage record')} of calls that left no reply in the replayed events (the condenser's, retries, other branches) not compared`,
        other,
      );
    if (usage.unusable.duplicate > 0)
      notes.add(
        'sdk-usage-dup',
        (n) => `${plural(n, 'usage record')} sharing a response id with another not attributed to a call`,
        usage.unusable.duplicate,
      );
    if (usage.unusable.convention > 0)
      notes.add(
        'sdk-usage-convention',
        (n) =>
          `${plural(n, 'usage record')} not attributed to a call: no prompt size that includes its cached tokens, or a figure that is not a token count`,
        usage.unusable.convention,
      );
  }
  return { messages, calls };
}

/** An observation's text: its `content` parts (SDK 1.0 on), or the `output` of earlier versions. */
function observationText(o: JsonObject, where: string, notes: Notes): string {
  if (Array.isArray(o.content)) return texts(o.content, where, notes);
  if (typeof o.output === 'string') {
    notes.add('sdk-output', (n) => `${plural(n, 'observation')} of an SDK before 1.0 read from its \`output\``);
    return o.output;
  }
  notes.add('sdk-no-content', (n) => `${plural(n, 'observation')} without content or output counted as empty`);
  return '';
}

function toolMessage(e: JsonObject, content: string): Message {
  const m: Message = { role: 'tool', content, origin: 'environment' };
  if (typeof e.tool_call_id === 'string') m.toolCallId = e.tool_call_id;
  if (typeof e.tool_name === 'string') m.name = e.tool_name;
  return m;
}

/**
 * One run from a conversation's events. `usage` is absent when the source recorded none (events alone);
 * its money is kept only when every branch was replayed (it covers them all).
 */
export function readSdkEvents(
  events: readonly Json[],
  usage: SdkUsage | undefined,
  head: SdkHead,
  notes: Notes,
): ImportedRun {
  const list = events
    .filter(isObject)
    .filter((e): e is JsonObject => typeof e.kind === 'string' && typeof e.id === 'string');
  if (list.length < events.length)
    notes.add(
      'sdk-bad-event',
      (n) => `${plural(n, 'record')} without an event id and kind skipped`,
      events.length - list.length,
    );
  if (list.some((e) => e.kind === 'ACPToolCallEvent')) refuseAcp();
  const { branch, left } = activeBranch(list, head, notes);
  if (branch.find((e) => !NOT_SENT.has(e.kind as string))?.kind !== 'SystemPromptEvent')
    notes.say(
      'the events do not begin with the system prompt (an excerpt of a conversation?): counts are a lower bound',
    );
  const run: ImportedRun = { format: 'openhands-sdk', ...readBranch(branch, usage, notes) };
  if (usage?.cost !== undefined && left === 0) run.recordedCost = usage.cost;
  else if (usage?.cost !== undefined)
    notes.say('the recorded cost is not shown: it covers the calls of the branches left too, which are not replayed');
  if (!usage && run.calls.length > 0)
    notes.say('no per-call usage is recorded beside these events (a conversation folder keeps it in base_state.json)');
  return run;
}

function evalRun(v: JsonObject, notes: Notes): ImportedRun {
  const usage = isObject(v.metrics) ? usageFromMetrics([v.metrics]) : undefined;
  const run = readSdkEvents(v.history as Json[], usage, {}, notes);
  // The agent LLM's Metrics name its model.
  const model = modelName(isObject(v.metrics) ? v.metrics.model_name : undefined);
  return model !== undefined ? { ...run, model } : run;
}

export const openHandsSdk: Importer = {
  name: 'OpenHands SDK (V1)',
  detect: (input) =>
    (input.kind === 'document' &&
      (isEvalRun(input.value) ||
        isEventList(input.value) ||
        (isObject(input.value) && isEventList(input.value.items)))) ||
    (input.kind === 'lines' && input.records.length > 0 && (areEvalRuns(input.records) || isEventList(input.records))),
  read(input, notes) {
    if (input.kind === 'lines') {
      noteBadLines(notes, input.bad);
      if (areEvalRuns(input.records))
        return input.records.map((r) => runMedia(notes, () => evalRun(r as JsonObject, notes)));
      return [readSdkEvents(input.records, undefined, { excerpt: true }, notes)];
    }
    if (input.kind !== 'document') return [];
    const v = input.value;
    if (isEvalRun(v)) return [evalRun(v, notes)];
    if (isObject(v)) {
      // A page of the events API holds the whole conversation only when it is the first and the last.
      const items = v.items as JsonObject[];
      const first = items.find((e) => !NOT_IN_TREE.has(e.kind as string));
      if ((typeof v.next_page_id === 'string' && v.next_page_id !== '') || first?.kind !== 'SystemPromptEvent')
        fail(
          'one page of the OpenHands events API, not the whole conversation: save every page into one list, or replay the conversation folder',
          'OpenHands SDK events page (part of a conversation)',
        );
      return [readSdkEvents(items, undefined, { excerpt: true }, notes)];
    }
    return [readSdkEvents(v as Json[], undefined, { excerpt: true }, notes)];
  },
};
