// mini-swe-agent `*.traj.json` (1.x: `trajectory_format: "mini-swe-agent-1"`, 2.x: "mini-swe-agent-1.1"):
// {info, messages}. Three model styles write the messages: text (actions in the assistant's text,
// observations as `user` messages), tool calling (`tool` messages), and the Responses API (the whole
// response object, `role` absent, with `function_call_output` items after it). A run ends with an
// `exit` message. A reply rejected as malformed is not kept: the `user` message that reports the error
// carries the rejected response in `extra.response`, so that call is replayed with no output.
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { contentText } from '../content';
import { isObject, optionalNumber, type Json, type JsonObject } from '../json';
import { plural, noteUnknownRole } from '../notes';
import { usageFrom } from '../usage';
import type { Importer } from '../importer';
import type { RecordedUsage } from '../types';
import { chatMessage } from './chat';
import { responseOutputMessage } from './responses';

function isMiniSweAgent(doc: Json): doc is JsonObject {
  if (!isObject(doc) || !Array.isArray(doc.messages)) return false;
  if (typeof doc.trajectory_format === 'string') return doc.trajectory_format.startsWith('mini-swe-agent');
  return isObject(doc.info) && isObject(doc.info.model_stats) && !('history' in doc);
}

function extraOf(m: JsonObject): JsonObject | undefined {
  return isObject(m.extra) ? m.extra : undefined;
}

/** What the provider recorded for the call behind message `m` (its own usage, or `extra.response.usage`). */
function recorded(m: JsonObject): RecordedUsage | undefined {
  const extra = extraOf(m);
  const response = extra && isObject(extra.response) ? extra.response : undefined;
  const usage = usageFrom(m.object === 'response' ? m.usage : response?.usage) ?? {};
  const cost = optionalNumber(extra?.cost);
  if (cost !== undefined && usage.cost === undefined) usage.cost = cost;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** The model the responses name, else the one the run's config asked for (`info.config.model.model_name`). */
function modelOf(fromResponses: string | undefined, doc: JsonObject): { model?: string } {
  const config = isObject(doc.info) && isObject(doc.info.config) ? doc.info.config : undefined;
  const model = fromResponses ?? modelName(config && isObject(config.model) ? config.model.model_name : undefined);
  return model !== undefined ? { model } : {};
}

export const miniSweAgent: Importer = {
  name: 'mini-swe-agent',
  detect: (input) => input.kind === 'document' && isMiniSweAgent(input.value),
  read(input, notes) {
    const doc = input.kind === 'document' && isObject(input.value) ? input.value : {};
    const list = Array.isArray(doc.messages) ? doc.messages : [];
    const b = new TrajectoryBuilder();
    /** The provider's response id of call `k`: how the same calls in another log (a copy) are found. */
    let model: string | undefined;
    const identify = (k: number, m: JsonObject) => {
      const response = m.object === 'response' ? m : extraOf(m)?.response;
      if (isObject(response) && typeof response.id === 'string' && response.id !== '')
        b.calls[k]!.responseId = response.id;
      // The model the provider answered as: what was billed, whatever the config asked for.
      if (model === undefined && isObject(response)) model = modelName(response.model);
    };
    let sawTask = false;
    let rejected = 0;
    list.forEach((v, i) => {
      const where = `message ${i}`;
      if (!isObject(v)) {
        notes.add('not-object', (n) => `${plural(n, 'message')} that are not objects dropped`);
        return;
      }
      // A rejected reply: the call happened, its output was not kept; the error report follows it.
      const extra = extraOf(v);
      // `response` may be the text of one that could not be serialized: the call happened all the same.
      if (extra && extra.response !== undefined && v.role !== 'assistant' && v.object !== 'response') {
        identify(b.rejectedCall(recorded(v)), v);
        rejected++;
      }
      if (v.object === 'response') {
        identify(b.call(b.push(responseOutputMessage(v, where, notes)), recorded(v)), v);
        return;
      }
      if (v.type === 'function_call_output') {
        const m: Message = { role: 'tool', content: contentText(v.output, where, notes), origin: 'environment' };
        if (typeof v.call_id === 'string') m.toolCallId = v.call_id;
        b.push(m);
        return;
      }
      switch (v.role) {
        case 'system':
          b.push(chatMessage(v, 'system', where, notes, 'agent'));
          return;
        case 'user':
          // The task is the person's; every later user message is the environment speaking (observations,
          // format errors, limits), by this format's convention.
          b.push(chatMessage(v, 'user', where, notes, sawTask ? 'environment' : 'person'));
          sawTask = true;
          return;
        case 'assistant':
          identify(b.call(b.push(chatMessage(v, 'assistant', where, notes, 'agent')), recorded(v)), v);
          return;
        case 'tool':
          b.push(chatMessage(v, 'tool', where, notes, 'environment'));
          return;
        case 'exit':
          return; // the run's end status: never sent to a model
        default:
          noteUnknownRole(notes, v.role);
      }
    });
    // An id given to several responses (a gateway's, a hand-made log) identifies none of them.
    const uses = new Map<string, number>();
    for (const c of b.calls) if (c.responseId) uses.set(c.responseId, (uses.get(c.responseId) ?? 0) + 1);
    for (const c of b.calls) if (c.responseId && uses.get(c.responseId)! > 1) delete c.responseId;
    if (rejected > 0)
      notes.add(
        'rejected',
        (n) =>
          `${plural(n, 'rejected reply', 'rejected replies')} (format errors) replayed as calls with no output kept`,
        rejected,
      );
    const stats = isObject(doc.info) && isObject(doc.info.model_stats) ? doc.info.model_stats : undefined;
    let total = optionalNumber(stats?.instance_cost);
    // $0 beside billed tokens is a price LiteLLM did not know (a local model, cost tracking off), not a free run.
    if (total === 0 && b.calls.some((c) => (c.recorded?.inputTokens ?? 0) + (c.recorded?.outputTokens ?? 0) > 0)) {
      total = undefined;
      notes.say('`model_stats` records a cost of $0 beside non-zero tokens: read as no cost recorded');
    }
    return [
      {
        format: 'mini-swe-agent',
        ...modelOf(model, doc),
        messages: b.messages,
        calls: b.calls,
        ...(total !== undefined ? { recordedCost: total } : {}),
      },
    ];
  },
};
