// `retry-filter`: on a retried call, drop tool results and the assistant messages that made tool calls,
// but keep one short line naming the tools already used and their key arguments, so the model does not
// pick the same call again, and the loop's corrective note (why the call is repeated). A person's messages
// are always kept. Without the retry flag the history is sent as is.
import type { Message, ToolCall } from '../messages';
import { inferOrigins, mustKeepVerbatim } from '../provenance';
import type { BuildOptions, ContextResult, ContextStrategy } from './types';

const MAX_ARG_CHARS = 40;
const MAX_LINE_CHARS = 600;
export const TOOLS_USED_PREFIX = 'Tools already used:';

function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

/** `name(key="value", ...)` with the first two scalar arguments; raw text when not JSON. */
export function describeToolCall(call: ToolCall): string {
  let args: string;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      args = Object.entries(parsed as Record<string, unknown>)
        .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
        .slice(0, 2)
        .map(([k, v]) => `${k}=${JSON.stringify(clip(String(v).replace(/\s+/g, ' '), MAX_ARG_CHARS))}`)
        .join(', ');
    } else args = clip(call.arguments.replace(/\s+/g, ' '), MAX_ARG_CHARS);
  } catch {
    args = clip(call.arguments.replace(/\s+/g, ' '), MAX_ARG_CHARS);
  }
  return `${call.name}(${args})`;
}

export function toolsUsedLine(calls: readonly ToolCall[]): string {
  const seen = [...new Set(calls.map(describeToolCall))];
  return clip(`${TOOLS_USED_PREFIX} ${seen.join(', ')}`, MAX_LINE_CHARS);
}

export function createRetryFilterStrategy(): ContextStrategy {
  return {
    name: 'retry-filter',
    build(history: readonly Message[], options?: BuildOptions): Promise<ContextResult> {
      if (!options?.retry)
        return Promise.resolve({ messages: history.slice(), masked: [], summaries: [], summarizedTurns: 0 });
      const kept: Message[] = [];
      const calls: ToolCall[] = [];
      const origins = inferOrigins(history);
      history.forEach((m, i) => {
        if (mustKeepVerbatim(m, origins[i])) kept.push(m);
        else if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) calls.push(...m.toolCalls);
        else if (m.role !== 'tool') kept.push(m);
      });
      if (calls.length > 0) kept.push({ role: 'user', origin: 'environment', content: toolsUsedLine(calls) });
      if (options.note) kept.push({ role: 'user', origin: 'environment', content: options.note });
      return Promise.resolve({ messages: kept, masked: [], summaries: [], summarizedTurns: 0 });
    },
  };
}
