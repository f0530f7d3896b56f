// OpenHands (V0 event stream): a trajectory is a list of events, each an action or an observation
// (`{id, source, action|observation, args|content, tool_call_metadata}`). Saved trajectories
// (`save_trajectory_path`, the UI's export) are a JSON list of events; evaluation runs write
// `output.jsonl`, one instance per line with its events in `history` and its `metrics`. The model saw
// these events as OpenHands' conversation memory renders them: actions from one model response are one
// assistant message (taken from `tool_call_metadata.model_response`, whose `usage` is the provider's
// record of that call), observations that answer a tool call are tool messages. A `condensation`
// action makes later calls forget the events it names and adds its summary.
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { contentText } from '../content';
import { isObject, optionalNumber, type Json, type JsonObject } from '../json';
import { noteBadLines, plural, runMedia, type Notes } from '../notes';
import type { ImportedRun, Importer } from '../importer';
import { usageFrom } from '../usage';
import { chatMessage } from './chat';
import { observationText } from './openhands-observation';

const SILENT = new Set(['change_agent_state', 'agent_state_changed', 'null', 'recall', 'pause', 'resume']);

function isEvent(v: Json): v is JsonObject {
  return (
    isObject(v) && typeof v.source === 'string' && (typeof v.action === 'string' || typeof v.observation === 'string')
  );
}

const isEventList = (v: Json): v is Json[] =>
  Array.isArray(v) &&
  v.length > 0 &&
  v.some(isEvent) &&
  v.every((e) => isObject(e) && ('action' in e || 'observation' in e || 'kind' in e));
const isRun = (v: Json): v is JsonObject => isObject(v) && Array.isArray(v.history) && isEventList(v.history);

function rangeIds(args: JsonObject): number[] {
  if (Array.isArray(args.forgotten_event_ids))
    return args.forgotten_event_ids.filter((x): x is number => typeof x === 'number');
  const from = optionalNumber(args.forgotten_events_start_id);
  const to = optionalNumber(args.forgotten_events_end_id);
  if (from === undefined || to === undefined) return [];
  const ids: number[] = [];
  for (let i = from; i <= to; i++) ids.push(i);
  return ids;
}

function readEvents(events: Json[], notes: Notes): Omit<ImportedRun, 'format'> {
  const b = new TrajectoryBuilder();
  const byEvent = new Map<number, number[]>();
  const responses = new Set<string>();
  let model: string | undefined;
  events.forEach((v, i) => {
    if (!isEvent(v)) return;
    const where = `event ${i}`;
    const from = b.messages.length;
    const args = isObject(v.args) ? v.args : {};
    const meta = isObject(v.tool_call_metadata) ? v.tool_call_metadata : undefined;
    const response = meta && isObject(meta.model_response) ? meta.model_response : undefined;
    model ??= modelName(response?.model);
    const kind = typeof v.action === 'string' ? v.action : String(v.observation);
    if (typeof v.action === 'string') {
      if (kind === 'system') {
        b.push({ role: 'system', content: typeof args.content === 'string' ? args.content : '', origin: 'agent' });
        const tools = Array.isArray(args.tools) ? args.tools.length : 0;
        if (tools > 0)
          notes.add(
            'system-tools',
            (n) =>
              `${plural(n, 'tool definition')} sent with the system prompt not counted (replay counts messages): raw counts are a lower bound`,
            tools,
          );
      } else if (kind === 'condensation') {
        for (const id of rangeIds(args)) for (const k of byEvent.get(id) ?? []) b.forget(k);
        if (typeof args.summary === 'string' && args.summary !== '')
          b.push({ role: 'user', content: args.summary, origin: 'agent' });
        notes.add(
          'condensation',
          (n) =>
            `condensed ${plural(n, 'time')}: later calls forget the events it names (its summary is appended, not placed at its offset)`,
        );
      } else if (response) {
        // Several actions of one response share it: one assistant message, one call.
        const id = typeof response.id === 'string' ? response.id : `event-${i}`;
        if (!responses.has(id)) {
          responses.add(id);
          const choice =
            Array.isArray(response.choices) && isObject(response.choices[0]) ? response.choices[0] : undefined;
          const m = isObject(choice?.message)
            ? chatMessage(choice.message, 'assistant', where, notes, 'agent')
            : { role: 'assistant' as const, content: '', origin: 'agent' as const };
          const call = b.call(b.push(m), usageFrom(response.usage));
          if (typeof response.id === 'string') b.calls[call]!.responseId = response.id;
        }
      } else if (kind === 'message') {
        const text = typeof args.content === 'string' ? args.content : typeof v.message === 'string' ? v.message : '';
        if (v.source === 'user') b.push({ role: 'user', content: text, origin: 'person' });
        else b.call(b.push({ role: 'assistant', content: text, origin: 'agent' }));
      } else if (v.source === 'agent') {
        // Without function calling the action is the reply's text.
        const text =
          typeof args.thought === 'string' && args.thought !== ''
            ? args.thought
            : typeof v.message === 'string'
              ? v.message
              : '';
        b.call(b.push({ role: 'assistant', content: text, origin: 'agent' }));
        notes.add(
          'no-metadata',
          (n) => `${plural(n, 'agent action')} without the model's response: replayed from the action's text`,
        );
      } else if (!SILENT.has(kind)) notes.add(`action:${kind}`, (n) => `${plural(n, `"${kind}" action`)} not replayed`);
    } else if (kind === 'recall') {
      // Workspace context and microagent knowledge: sent, but rendered from templates this log lacks.
      notes.add(
        'recall',
        (n) =>
          `${plural(n, 'recall observation')} (workspace context, microagent knowledge) not counted: OpenHands renders them from templates the log does not hold`,
      );
    } else if (!SILENT.has(kind)) {
      const content = observationText(v, contentText(v.content, where, notes));
      const callId = meta && typeof meta.tool_call_id === 'string' ? meta.tool_call_id : undefined;
      const m: Message =
        callId !== undefined
          ? { role: 'tool', content, toolCallId: callId, origin: 'environment' }
          : { role: 'user', content, origin: 'environment' };
      if (callId !== undefined && typeof meta?.function_name === 'string') m.name = meta.function_name;
      b.push(m);
    }
    if (typeof v.id === 'number' && b.messages.length > from) {
      const ids: number[] = [];
      for (let k = from; k < b.messages.length; k++) ids.push(k);
      byEvent.set(v.id, ids);
    }
  });
  if (b.calls.length > 0 && !b.messages.some((m) => m.role === 'system'))
    notes.say(
      'no system action: the system prompt and tool definitions OpenHands sent are not in the log (older versions did not record them), so raw counts are a lower bound',
    );
  return { ...(model !== undefined ? { model } : {}), messages: b.messages, calls: b.calls };
}

/** The model an evaluation output's `metadata.llm_config` names (what the responses name comes first). */
function configModel(v: JsonObject): string | undefined {
  const meta = isObject(v.metadata) ? v.metadata : undefined;
  return modelName(meta && isObject(meta.llm_config) ? meta.llm_config.model : undefined);
}

function runOf(v: JsonObject, notes: Notes): ImportedRun {
  const run = readEvents(v.history as Json[], notes);
  run.model ??= configModel(v);
  if (run.model === undefined) delete run.model;
  const metrics = isObject(v.metrics) ? v.metrics : undefined;
  let cost = optionalNumber(metrics?.accumulated_cost);
  // $0 beside billed tokens is a price LiteLLM did not know (a local or unlisted model), not a free run.
  if (cost === 0 && run.calls.some((c) => (c.recorded?.inputTokens ?? 0) + (c.recorded?.outputTokens ?? 0) > 0)) {
    cost = undefined;
    notes.add(
      'zero-cost',
      (n) => `${plural(n, 'run')} recorded a cost of $0 beside non-zero tokens: read as no cost recorded`,
    );
  }
  return { format: 'openhands', ...run, ...(cost !== undefined ? { recordedCost: cost } : {}) };
}

export const openHands: Importer = {
  name: 'OpenHands',
  detect: (input) =>
    (input.kind === 'document' && (isEventList(input.value) || isRun(input.value))) ||
    (input.kind === 'lines' && input.records.length > 0 && input.records.every(isRun)),
  read(input, notes) {
    if (input.kind === 'lines') {
      noteBadLines(notes, input.bad);
      return input.records.filter(isObject).map((r) => runMedia(notes, () => runOf(r, notes)));
    }
    if (input.kind === 'document' && isRun(input.value)) return [runOf(input.value, notes)];
    const events = input.kind === 'document' && Array.isArray(input.value) ? input.value : [];
    return [{ format: 'openhands', ...readEvents(events, notes) }];
  },
};
