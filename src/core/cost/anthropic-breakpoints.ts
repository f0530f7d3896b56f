// Where the Anthropic provider puts its prompt-cache breakpoints, and how many content blocks each of our
// messages becomes: one pure rule for the request sent (providers/anthropic-messages.ts) and the cost estimated
// for it (anthropic-cache.ts), so the estimate reads the cache where the provider wrote it.
import type { Message } from '../messages';
import { commonPrefixLength } from './prefix-cache';
import { visible } from '../visible-text';

/**
 * Content blocks a message becomes in Anthropic's format (see blocksOf in providers/anthropic-messages.ts): none for
 * a system message (it goes to `system`), one for a tool result, else its text (when visible) and one per
 * tool call, at least one.
 */
export function anthropicBlockCount(m: Message): number {
  if (m.role === 'system') return 0;
  if (m.role === 'tool') return 1;
  return Math.max(1, (visible(m.content) ? 1 : 0) + (m.toolCalls?.length ?? 0));
}

/**
 * Indices of the messages whose last block carries a breakpoint (the system prompt's own breakpoint aside):
 * (1) the last message before the first change since `previous`, (2) the highest of `previousBreakpoints`
 * inside the unchanged prefix, (3) the last message. See providers/anthropic-messages.ts for why.
 */
export function anthropicBreakpoints(
  messages: readonly Message[],
  previous?: readonly Message[],
  previousBreakpoints: readonly number[] = [],
): number[] {
  const hasBlock = (i: number): boolean => messages[i]!.role !== 'system';
  const marks = new Set<number>();
  if (previous && previous.length > 0) {
    const stable = commonPrefixLength(previous, messages);
    for (let i = stable - 1; i >= 0; i--) {
      if (hasBlock(i)) {
        marks.add(i);
        break;
      }
    }
    // The prefix up to a breakpoint of the previous request is in the cache (written or read then).
    const written = previousBreakpoints.filter((i) => i < stable && hasBlock(i));
    if (written.length > 0) marks.add(Math.max(...written));
  }
  const lastIndex = messages.findLastIndex((m) => m.role !== 'system');
  if (lastIndex >= 0) marks.add(lastIndex);
  return [...marks].sort((a, b) => a - b);
}
