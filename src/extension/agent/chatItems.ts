// The chat view model's starting points: an empty chat, and the items of a conversation read back from
// its history file (a resumed session).
import type { ChatItem, ChatSnapshot, ChatToolCall, ContextMeter, SetupSummary } from '../../protocol/chat';
import type { Message } from '../../core/messages';
import type { MaskedInfo } from '../../core/store/history';
import { parseFullOutputLine } from '../../core/store/tool-outputs';

export const STRATEGIES = ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'] as const;

export function emptyMeter(contextWindow: number, estimated: boolean): ContextMeter {
  return {
    tokensInWindow: 0,
    contextWindow,
    cachedTokens: 0,
    rawHistoryTokens: 0,
    costUnits: 0,
    calls: 0,
    maskedObservations: 0,
    maskedStored: 0,
    estimated,
  };
}

export function emptyChat(
  sessionId: string,
  strategy: string,
  contextWindow: number,
  estimated: boolean,
  setup: SetupSummary = { provider: 'openai-compatible', ready: false },
): ChatSnapshot {
  return {
    sessionId,
    status: 'idle',
    strategy,
    strategies: [...STRATEGIES],
    models: [],
    setup,
    items: [],
    meter: emptyMeter(contextWindow, estimated),
    series: [],
    pastSessions: [],
  };
}

/** Lines of the full output a tool result names in its `Full output (N lines, ...)` line. */
export function outputLinesOf(content: string): number | undefined {
  return parseFullOutputLine(content)?.lines;
}

/**
 * The panel's items for a conversation read back from its history file (a resumed session): user
 * messages, and assistant answers with their tool calls, what the model saw of each result, and which
 * results were masked when the file was last written.
 */
export function itemsFromMessages(
  sessionId: string,
  messages: readonly Message[],
  at: number,
  masked: ReadonlyMap<string, MaskedInfo> = new Map(),
): ChatItem[] {
  const items: ChatItem[] = [];
  const results = new Map(messages.filter((m) => m.role === 'tool' && m.toolCallId).map((m) => [m.toolCallId!, m]));
  let turn = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user') items.push({ kind: 'user', id: `u-${i}-${at}`, text: m.content, at });
    if (m.role !== 'assistant') return;
    turn++;
    const tools: ChatToolCall[] = (m.toolCalls ?? []).map((c) => {
      const r = results.get(c.id);
      const mask = masked.get(c.id);
      // A stored result without its `Full output` line is a short one the model saw whole.
      const full = r ? outputLinesOf(r.content) : undefined;
      const lines = r ? (full ?? countLines(r.content)) : undefined;
      return {
        callId: c.id,
        tool: c.name,
        arguments: c.arguments,
        state: r ? 'ok' : 'cancelled',
        ...(r ? { preview: r.content } : {}),
        ...(r?.storedAt ? { storedAt: r.storedAt, ...(full === undefined ? { shownWhole: true } : {}) } : {}),
        ...(lines !== undefined ? { outputLines: lines } : {}),
        ...(mask
          ? {
              masked: true,
              ...(mask.lines !== undefined ? { maskedLines: mask.lines } : {}),
              ...(mask.placeholder ? { placeholder: mask.placeholder } : {}),
            }
          : {}),
      };
    });
    items.push({ kind: 'assistant', id: `a-${sessionId}-${turn}`, turn, text: m.content, streaming: false, tools });
  });
  return items;
}

/** Lines of a text (a final newline ends the last line, it does not start another). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
