// OpenAI chat messages: `{messages: [...]}`, a bare array, or JSONL with one message per line.
import type { Message, Role, ToolCall } from '../messages';
import { fail } from './errors';
import { argumentsText, asArray, asObject, contentText, type Json } from './json';

const ROLES: Record<string, Role> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

function toolCalls(v: unknown, where: string): ToolCall[] | undefined {
  if (v === undefined || v === null) return undefined;
  const calls = asArray(v, `${where}: tool_calls`).map((c, j) => {
    const call = asObject(c, `${where}: tool call ${j}`);
    const fn = asObject(call.function, `${where}: tool call ${j} function`);
    if (typeof fn.name !== 'string') fail(`${where}: tool call ${j} has no function name`);
    return {
      id: typeof call.id === 'string' ? call.id : `call_${j}`,
      name: fn.name,
      arguments: argumentsText(fn.arguments),
    };
  });
  return calls.length > 0 ? calls : undefined;
}

/** One provider message; `where` names it in errors (e.g. "message 3", "line 7"). */
export function openAiMessage(v: Json, where: string): Message {
  const m = asObject(v, where);
  const role = typeof m.role === 'string' ? ROLES[m.role] : undefined;
  if (role === undefined) fail(`${where}: unknown role ${JSON.stringify(m.role ?? null)}`);
  const message: Message = { role, content: contentText(m.content, where) };
  const calls = toolCalls(m.tool_calls, where);
  if (calls) message.toolCalls = calls;
  if (typeof m.tool_call_id === 'string') message.toolCallId = m.tool_call_id;
  if (typeof m.name === 'string') message.name = m.name;
  return message;
}

export function openAiMessages(list: Json[], where = 'message'): Message[] {
  return list.map((m, i) => openAiMessage(m, `${where} ${i}`));
}
