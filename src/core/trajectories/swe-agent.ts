// SWE-agent `*.traj` (1.x): `history` (the chat as sent) beside a large `trajectory` array of per-step
// copies ({action, observation, response, thought, query, ...}); history-only extracts drop the latter.
// Content may be a string or a list of parts; tool results name their call in `tool_call_ids`.
import type { Message, Role, Trajectory } from '../messages';
import { fail } from './errors';
import { argumentsText, asArray, asObject, contentText, isObject, type Json, type JsonObject } from './json';

export function isSweAgent(doc: unknown): doc is JsonObject {
  return isObject(doc) && (Array.isArray(doc.history) || (Array.isArray(doc.trajectory) && !('messages' in doc)));
}

const ROLES: Record<string, Role> = { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool' };

function historyMessage(v: Json, where: string): Message {
  const m = asObject(v, where);
  const role = typeof m.role === 'string' ? ROLES[m.role] : undefined;
  if (role === undefined) fail(`${where}: unknown role ${JSON.stringify(m.role ?? null)}`);
  const message: Message = { role, content: contentText(m.content, where) };
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
    message.toolCalls = m.tool_calls.map((c, j) => {
      const call = asObject(c, `${where}: tool call ${j}`);
      const fn = asObject(call.function, `${where}: tool call ${j} function`);
      if (typeof fn.name !== 'string') fail(`${where}: tool call ${j} has no function name`);
      return {
        id: typeof call.id === 'string' ? call.id : `call_${j}`,
        name: fn.name,
        arguments: argumentsText(fn.arguments),
      };
    });
  }
  const ids = m.tool_call_ids;
  if (Array.isArray(ids) && typeof ids[0] === 'string') message.toolCallId = ids[0];
  else if (typeof m.tool_call_id === 'string') message.toolCallId = m.tool_call_id;
  return message;
}

/**
 * Without `history`, the last step's `query` is the chat as sent at the last call; its response and
 * observation complete it.
 */
function fromSteps(steps: Json[]): Json[] {
  const last = asObject(steps[steps.length - 1], `trajectory step ${steps.length - 1}`);
  const query = asArray(last.query, `trajectory step ${steps.length - 1}: query`);
  const out: Json[] = [...query];
  if (typeof last.response === 'string') out.push({ role: 'assistant', content: last.response });
  if (typeof last.observation === 'string') out.push({ role: 'user', content: last.observation });
  return out;
}

export function readSweAgent(doc: JsonObject, fallbackId: string): Omit<Trajectory, 'source'> {
  const steps = Array.isArray(doc.trajectory) ? doc.trajectory : undefined;
  let raw: Json[];
  if (Array.isArray(doc.history)) raw = doc.history;
  else if (steps && steps.length > 0) raw = fromSteps(steps);
  else fail('neither a history nor trajectory steps');
  const messages = raw.map((m, i) => historyMessage(m, `history message ${i}`));
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role !== 'assistant') end--;
  if (end === 0) fail('no assistant messages (no model calls)');
  const id = typeof doc.environment === 'string' && doc.environment !== '' ? doc.environment : fallbackId;
  // The observation after the last action (the submitted diff) never reached a model: cut it.
  return { id, format: steps ? 'swe-agent' : 'swe-agent-history', messages: messages.slice(0, end) };
}
