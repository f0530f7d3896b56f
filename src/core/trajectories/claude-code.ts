// Claude Code session JSONL: one event per line; `user` / `assistant` events carry an Anthropic message
// whose content is text, `tool_use` and `tool_result` blocks. One API response may span several lines
// (one per block) sharing `message.id`: they are merged back into one assistant message.
import type { Message, Trajectory } from '../messages';
import { fail } from './errors';
import { argumentsText, asArray, asObject, contentText, isObject, optionalNumber, type JsonObject } from './json';

export function isClaudeCodeRecord(v: unknown): boolean {
  return isObject(v) && typeof v.type === 'string' && (isObject(v.message) || typeof v.sessionId === 'string');
}

interface Acc {
  messages: Message[];
  outputTokens: (number | undefined)[];
  providerPromptTokens: (number | undefined)[];
  lastAssistantId: string | undefined;
}

function addAssistant(acc: Acc, msg: JsonObject, where: string): void {
  const blocks =
    typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : asArray(msg.content, `${where}: content`);
  const id = typeof msg.id === 'string' ? msg.id : undefined;
  let target = acc.messages[acc.messages.length - 1];
  if (!(id !== undefined && id === acc.lastAssistantId && target?.role === 'assistant')) {
    target = { role: 'assistant', content: '' };
    acc.messages.push(target);
    acc.outputTokens.push(undefined);
    acc.providerPromptTokens.push(undefined);
  }
  acc.lastAssistantId = id;
  blocks.forEach((b, j) => {
    const block = asObject(b, `${where}: block ${j}`);
    if (block.type === 'text' && typeof block.text === 'string')
      target.content += (target.content ? '\n' : '') + block.text;
    else if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string')
        fail(`${where}: tool_use block ${j} lacks id or name`);
      (target.toolCalls ??= []).push({ id: block.id, name: block.name, arguments: argumentsText(block.input ?? {}) });
    }
    // thinking / redacted_thinking blocks are not replayed as context
  });
  if (isObject(msg.usage)) {
    const u = msg.usage;
    const k = acc.outputTokens.length - 1;
    acc.outputTokens[k] = optionalNumber(u.output_tokens);
    const parts = [u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens].map(optionalNumber);
    acc.providerPromptTokens[k] = parts[0] === undefined ? undefined : parts.reduce<number>((s, n) => s + (n ?? 0), 0);
  }
}

function addUser(acc: Acc, msg: JsonObject, where: string): void {
  acc.lastAssistantId = undefined;
  if (typeof msg.content === 'string') {
    acc.messages.push({ role: 'user', content: msg.content });
    return;
  }
  const text: string[] = [];
  asArray(msg.content, `${where}: content`).forEach((b, j) => {
    const block = asObject(b, `${where}: block ${j}`);
    if (block.type === 'tool_result') {
      if (typeof block.tool_use_id !== 'string') fail(`${where}: tool_result block ${j} has no tool_use_id`);
      acc.messages.push({ role: 'tool', content: contentText(block.content, where), toolCallId: block.tool_use_id });
    } else if (block.type === 'text' && typeof block.text === 'string') text.push(block.text);
    else text.push(`[${typeof block.type === 'string' ? block.type : 'block'}]`);
  });
  if (text.length > 0) acc.messages.push({ role: 'user', content: text.join('\n') });
}

export function readClaudeCode(records: unknown[], fallbackId: string): Omit<Trajectory, 'source'> {
  const acc: Acc = { messages: [], outputTokens: [], providerPromptTokens: [], lastAssistantId: undefined };
  let id: string | undefined;
  records.forEach((r, i) => {
    const where = `line ${i + 1}`;
    const rec = asObject(r, where);
    if (typeof rec.sessionId === 'string') id ??= rec.sessionId;
    // Sub-agent (sidechain) turns run in their own context; meta lines are UI-only.
    if (rec.isSidechain === true || rec.isMeta === true) return;
    if (rec.type !== 'user' && rec.type !== 'assistant') return; // summary, system, snapshots...
    const msg = asObject(rec.message, `${where}: message`);
    if (rec.type === 'assistant') addAssistant(acc, msg, where);
    else addUser(acc, msg, where);
  });
  if (!acc.messages.some((m) => m.role === 'assistant')) fail('no assistant messages (no model calls)');
  return {
    id: id ?? fallbackId,
    format: 'claude-code',
    messages: acc.messages,
    outputTokens: acc.outputTokens,
    providerPromptTokens: acc.providerPromptTokens,
  };
}
