// Our messages in Anthropic's Messages format, with prompt-cache breakpoints where the strategy kept the
// prefix stable. Anthropic caches a prefix ending at a `cache_control` block; a later request reads it
// when its own prefix up to one of its breakpoints, or up to a block at most about 20 blocks before one,
// is identical (docs: prompt caching, lookback). So we mark (1) the system prompt (covers tools and
// system), (2) the last message before the first change since the previous request (the prefix the
// strategy left untouched, e.g. everything before the mask boundary moved), (3) the last message, so the
// next call, which appends to this one, can read all of it, and (4) the previous request's last
// breakpoint inside the untouched prefix: a cache entry surely exists there, while (2) alone finds one
// only within the lookback, which a turn of ten or more parallel tool calls outruns (each is two blocks),
// and then the whole prompt was written again at the write price. The four breakpoints allowed.
import { createHash } from 'node:crypto';
import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message } from '../messages';
import type { ToolSpec } from '../agent/provider';
import { anthropicBreakpoints } from '../cost/anthropic-breakpoints';
import { textNestedDeeperThan } from '../json-depth';
import { wireToolName } from './wire-tool-name';
import { EMPTY_OUTPUT, visible } from '../visible-text';

const EPHEMERAL = { type: 'ephemeral' } as const;

export interface AnthropicRequestParts {
  system: TextBlockParam[] | undefined;
  messages: MessageParam[];
  /** Indices (in our messages) whose last block carries a breakpoint. */
  breakpoints: number[];
}

function parseInput(args: string): Record<string, unknown> {
  // Too deep to serialise again: sent as text, like broken JSON.
  if (textNestedDeeperThan(args)) return { _unparsed_arguments: args };
  try {
    const v: unknown = JSON.parse(args);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // The model's JSON was broken: send what it wrote so it can see its mistake.
  }
  return { _unparsed_arguments: args };
}

const TOOL_ID = /^[A-Za-z0-9_-]+$/;

/**
 * A tool-call id as Anthropic takes it (`^[a-zA-Z0-9_-]+$`). Other servers write ids Anthropic refuses
 * (Kimi's `functions.read_file:0`), so a conversation carried over from them was refused whole, at every
 * message. The same id always maps to the same one, so a call and its result still pair; a hash of the
 * original keeps two ids that differ only in refused characters apart.
 */
export function anthropicToolId(id: string): string {
  if (TOOL_ID.test(id)) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${id.replace(/[^A-Za-z0-9_-]/g, '_')}_${hash}`;
}

function blocksOf(m: Message): ContentBlockParam[] {
  if (m.role === 'tool') {
    const content = visible(m.content) ? m.content : EMPTY_OUTPUT;
    if (m.toolCallId === undefined) return [{ type: 'text', text: content }];
    return [{ type: 'tool_result', tool_use_id: anthropicToolId(m.toolCallId), content }];
  }
  const blocks: ContentBlockParam[] = [];
  if (visible(m.content)) blocks.push({ type: 'text', text: m.content });
  for (const c of m.toolCalls ?? [])
    blocks.push({
      type: 'tool_use',
      id: anthropicToolId(c.id),
      name: wireToolName(c.name),
      input: parseInput(c.arguments),
    });
  if (blocks.length === 0) blocks.push({ type: 'text', text: '(empty)' });
  return blocks;
}

/**
 * Converts messages (system messages go to `system`; tool results become user `tool_result` blocks;
 * consecutive messages of one role merge) and places breakpoints against `previous`, the messages of
 * the previous request of the same conversation, and `previousBreakpoints`, the `breakpoints` it was sent with.
 */
export function toAnthropicRequest(
  messages: readonly Message[],
  previous?: readonly Message[],
  previousBreakpoints: readonly number[] = [],
): AnthropicRequestParts {
  const systemText = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const system: TextBlockParam[] | undefined =
    systemText.length > 0 ? [{ type: 'text', text: systemText.join('\n\n'), cache_control: EPHEMERAL }] : undefined;
  const out: MessageParam[] = [];
  /** For each of our messages: the block that ends it (undefined for system messages). */
  const ends: (ContentBlockParam | undefined)[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      ends.push(undefined);
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m);
    const last = out[out.length - 1];
    if (last && last.role === role) {
      (last.content as ContentBlockParam[]).push(...blocks);
    } else out.push({ role, content: blocks });
    ends.push(blocks[blocks.length - 1]);
  }
  const breakpoints = anthropicBreakpoints(messages, previous, previousBreakpoints);
  for (const i of breakpoints) {
    const block = ends[i] as { cache_control?: typeof EPHEMERAL };
    block.cache_control = EPHEMERAL;
  }
  return { system, messages: out, breakpoints };
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: 'object', ...t.inputSchema } as Tool['input_schema'],
  }));
}
