// The provider's prompt cache, modelled at message granularity: a message is served from the cache only
// when it and every message before it are identical to the previous request.
import type { Message, ToolCall } from '../messages';

function sameToolCalls(a: readonly ToolCall[] | undefined, b: readonly ToolCall[] | undefined): boolean {
  if (a === b) return true;
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((c, i) => c.id === y[i]!.id && c.name === y[i]!.name && c.arguments === y[i]!.arguments);
}

/** Equal as the provider sees them (`storedAt` is ours and never sent). */
export function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  return (
    a.role === b.role &&
    a.content === b.content &&
    a.toolCallId === b.toolCallId &&
    a.name === b.name &&
    sameToolCalls(a.toolCalls, b.toolCalls)
  );
}

/** Number of leading messages two requests share. */
export function commonPrefixLength(previous: readonly Message[], next: readonly Message[]): number {
  const n = Math.min(previous.length, next.length);
  let i = 0;
  while (i < n && sameMessage(previous[i]!, next[i]!)) i++;
  return i;
}
