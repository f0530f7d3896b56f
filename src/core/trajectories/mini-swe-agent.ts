// mini-swe-agent `*.traj.json`: {instance_id, info, messages, trajectory_format: "mini-swe-agent-1"}.
// One assistant message = one model call; `extra.response.usage` holds what the provider billed.
import type { Message, Trajectory } from '../messages';
import { fail } from './errors';
import { asArray, asObject, contentText, isObject, optionalNumber, type JsonObject } from './json';

export function isMiniSweAgent(doc: unknown): doc is JsonObject {
  if (!isObject(doc)) return false;
  if (typeof doc.trajectory_format === 'string') return doc.trajectory_format.startsWith('mini-swe-agent');
  return Array.isArray(doc.messages) && isObject(doc.info) && isObject(doc.info.model_stats) && !('history' in doc);
}

function usage(m: JsonObject): JsonObject | undefined {
  const extra = isObject(m.extra) ? m.extra : undefined;
  const response = extra && isObject(extra.response) ? extra.response : undefined;
  return response && isObject(response.usage) ? response.usage : undefined;
}

export function readMiniSweAgent(doc: JsonObject, fallbackId: string): Omit<Trajectory, 'source'> {
  const raw = asArray(doc.messages, 'messages');
  const messages: Message[] = [];
  const outputTokens: (number | undefined)[] = [];
  const providerPromptTokens: (number | undefined)[] = [];
  raw.forEach((v, i) => {
    const m = asObject(v, `message ${i}`);
    if (m.role !== 'system' && m.role !== 'user' && m.role !== 'assistant') {
      fail(`message ${i}: unknown role ${JSON.stringify(m.role ?? null)}`);
    }
    messages.push({ role: m.role, content: contentText(m.content, `message ${i}`) });
    if (m.role === 'assistant') {
      const u = usage(m);
      outputTokens.push(optionalNumber(u?.completion_tokens));
      providerPromptTokens.push(optionalNumber(u?.prompt_tokens));
    }
  });
  // What follows the last action (the submitted diff, or a final observation) never reached a model.
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role !== 'assistant') end--;
  if (end === 0) fail('no assistant messages (no model calls)');
  const id = typeof doc.instance_id === 'string' && doc.instance_id !== '' ? doc.instance_id : fallbackId;
  return { id, format: 'mini-swe-agent', messages: messages.slice(0, end), outputTokens, providerPromptTokens };
}
