// OpenAI chat messages (`{role, content, tool_calls, tool_call_id}`), the shape mini-swe-agent,
// SWE-agent, OpenHands responses and plain chat logs share.
import type { Message, Origin, Role, ToolCall } from '../../messages';
import { contentText } from '../content';
import { fail } from '../errors';
import { argumentsText, asArray, asObject, isObject, type JsonObject } from '../json';
import type { Notes } from '../notes';
import { formatCount } from '../../numbers';

export const CHAT_ROLES: Record<string, Role> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

/** The origin a role implies in a chat whose tool output arrives as `tool` messages. */
export function chatOrigin(role: Role): Origin {
  return role === 'user' ? 'person' : role === 'tool' ? 'environment' : 'agent';
}

export function chatToolCalls(v: unknown, where: string): ToolCall[] | undefined {
  if (v === undefined || v === null) return undefined;
  const calls = asArray(v, `${where}: tool_calls`).map((c, j) => {
    const call = asObject(c, `${where}: tool call ${j}`);
    // A custom tool (`type: 'custom'`) carries free text as `custom.input`, a function JSON `arguments`.
    const fn = isObject(call.function) ? call.function : isObject(call.custom) ? call.custom : call;
    if (typeof fn.name !== 'string') fail(`${where}: tool call ${j} has no function name`);
    return {
      id: typeof call.id === 'string' ? call.id : `call_${j}`,
      name: fn.name,
      arguments: argumentsText(fn.arguments ?? fn.input),
    };
  });
  return calls.length > 0 ? calls : undefined;
}

/** One chat message with a known role; `origin` defaults to what the role implies. */
export function chatMessage(
  m: JsonObject,
  role: Role,
  where: string,
  notes: Notes,
  origin = chatOrigin(role),
): Message {
  const message: Message = { role, content: contentText(m.content, where, notes), origin };
  // `function_call`: the legacy function-calling shape, one call per reply, answered by a `function` message.
  const calls = chatToolCalls(m.tool_calls ?? (isObject(m.function_call) ? [m.function_call] : undefined), where);
  if (calls) message.toolCalls = calls;
  const ids = m.tool_call_ids;
  if (typeof m.tool_call_id === 'string') message.toolCallId = m.tool_call_id;
  else if (Array.isArray(ids) && typeof ids[0] === 'string') message.toolCallId = ids[0];
  if (typeof m.name === 'string') message.name = m.name;
  const reasoning =
    (typeof m.reasoning_content === 'string' && m.reasoning_content !== '') ||
    (Array.isArray(m.thinking_blocks) && m.thinking_blocks.length > 0);
  if (role === 'assistant' && reasoning)
    notes.add(
      'chat-reasoning',
      (n) =>
        `${n === 1 ? "1 reply's" : `${formatCount(n)} replies'`} reasoning (reasoning_content, ` +
        "thinking_blocks) not counted: LiteLLM sends Claude's thinking blocks back within a tool-use loop, other " +
        "providers' reasoning is not sent back; raw counts may be a lower bound",
    );
  return message;
}

/** The role of a chat message, or undefined when it has none this format knows. */
export function chatRole(m: JsonObject): Role | undefined {
  return typeof m.role === 'string' ? CHAT_ROLES[m.role] : undefined;
}
