// SWE-agent `*.traj` (1.x): `history` (the chat as sent) beside `trajectory`, one entry per step
// ({action, observation, response, thought, query}). History-only extracts drop `trajectory`; files
// without `history` are rebuilt from the last step's `query` (the whole prompt of that call). When
// `history` stops short of the steps (the final `submit` step is often only in `trajectory`), the
// missing steps are added from `trajectory`. Observations arrive as `user` messages without function
// calling and as `tool` messages with it; either way they are the environment's, and only the first
// user message (the task) is the person's.
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { fail } from '../errors';
import { asObject, isObject, optionalNumber, type Json, type JsonObject } from '../json';
import { plural, type Notes, noteUnknownRole } from '../notes';
import type { Importer } from '../importer';
import { chatMessage, chatRole, chatToolCalls } from './chat';

function isSweAgent(doc: Json): doc is JsonObject {
  if (!isObject(doc)) return false;
  if (Array.isArray(doc.history))
    return doc.history.length === 0 || (isObject(doc.history[0]) && typeof doc.history[0].role === 'string');
  return (
    Array.isArray(doc.trajectory) &&
    !('messages' in doc) &&
    isObject(doc.trajectory[0]) &&
    'action' in doc.trajectory[0]
  );
}

function isDemo(m: JsonObject): boolean {
  return m.is_demo === true || m.message_type === 'demonstration';
}

function readHistory(list: Json[], b: TrajectoryBuilder, notes: Notes, where: string): void {
  let sawTask = false;
  list.forEach((v, i) => {
    const m = asObject(v, `${where} ${i}`);
    const role = chatRole(m);
    if (role === undefined) {
      noteUnknownRole(notes, m.role);
      return;
    }
    const origin =
      role === 'user'
        ? isDemo(m)
          ? 'agent'
          : sawTask
            ? 'environment'
            : 'person'
        : role === 'tool'
          ? 'environment'
          : 'agent';
    if (role === 'user' && !isDemo(m)) sawTask = true;
    const index = b.push(chatMessage(m, role, `${where} ${i}`, notes, origin));
    if (role === 'assistant' && !isDemo(m)) b.call(index);
  });
}

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
    const steps = Array.isArray(doc.trajectory) ? doc.trajectory.filter(isObject) : undefined;
    const b = new TrajectoryBuilder();
    if (Array.isArray(doc.history)) readHistory(doc.history, b, notes, 'history message');
    else {
      const last = steps?.[steps.length - 1];
      if (!last || !Array.isArray(last.query)) fail('neither a history nor trajectory steps with their prompt');
      readHistory(last.query, b, notes, `trajectory step ${steps!.length - 1}: query`);
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
      notes.add(
        'swe-missing',
        (n) => `${plural(n, 'step')} missing from \`history\` taken from \`trajectory\``,
        missing,
      );
    }
    const stats = isObject(doc.info) && isObject(doc.info.model_stats) ? doc.info.model_stats : undefined;
    const total = optionalNumber(stats?.instance_cost);
    return [
      {
        format: steps ? 'swe-agent' : 'swe-agent-history',
        messages: b.messages,
        calls: b.calls,
        ...(total !== undefined ? { recordedCost: total } : {}),
      },
    ];
  },
};
