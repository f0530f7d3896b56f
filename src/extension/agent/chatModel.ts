// Builds the panel's chat view model from the agent's events: a pure translation, no VS Code calls.
import type { ChatItem, ChatPatch, ChatSnapshot, ChatToolCall, ContextMeter, NoticeAction } from '../../protocol/chat';
import { applyChatPatches } from '../../protocol/chatPatch';
import type { AgentEvent } from '../../core/agent/events';
import type { Message } from '../../core/messages';
import type { ProviderErrorKind } from '../../core/agent/errors';
import type { BudgetEvent } from '../../core/budget/types';

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
    estimated,
  };
}

export function emptyChat(
  sessionId: string,
  strategy: string,
  contextWindow: number,
  estimated: boolean,
): ChatSnapshot {
  return {
    sessionId,
    status: 'idle',
    strategy,
    strategies: [...STRATEGIES],
    models: [],
    items: [],
    meter: emptyMeter(contextWindow, estimated),
    series: [],
    pastSessions: [],
  };
}

/**
 * The panel's items for a conversation read back from its history file (a resumed session): user
 * messages, and assistant answers with their tool calls and what the model saw of each result.
 */
export function itemsFromMessages(sessionId: string, messages: readonly Message[], at: number): ChatItem[] {
  const items: ChatItem[] = [];
  const results = new Map(messages.filter((m) => m.role === 'tool' && m.toolCallId).map((m) => [m.toolCallId!, m]));
  let turn = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user') items.push({ kind: 'user', id: `u-${i}-${at}`, text: m.content, at });
    if (m.role !== 'assistant') return;
    turn++;
    const tools: ChatToolCall[] = (m.toolCalls ?? []).map((c) => {
      const r = results.get(c.id);
      return {
        callId: c.id,
        tool: c.name,
        arguments: c.arguments,
        state: r ? 'ok' : 'cancelled',
        ...(r ? { preview: r.content } : {}),
        ...(r?.storedAt ? { storedAt: r.storedAt } : {}),
      };
    });
    items.push({ kind: 'assistant', id: `a-${sessionId}-${turn}`, turn, text: m.content, streaming: false, tools });
  });
  return items;
}

/**
 * Turns agent events into chat patches, keeping its own snapshot up to date with the same reducer the
 * webview uses, so a re-shown panel gets exactly what it showed before.
 */
export class ChatModel {
  private s: ChatSnapshot;
  private noticeCount = 0;

  constructor(initial: ChatSnapshot) {
    this.s = initial;
  }

  get snapshot(): ChatSnapshot {
    return this.s;
  }

  /** Applies patches made elsewhere (setup hints, past sessions) and returns them for posting. */
  patch(patches: ChatPatch[]): ChatPatch[] {
    this.s = applyChatPatches(this.s, patches);
    return patches;
  }

  userMessage(text: string, at: number): ChatPatch[] {
    return this.patch([
      { op: 'upsertItem', item: { kind: 'user', id: `u-${this.s.items.length}-${at}`, text, at } },
      { op: 'status', status: 'running' },
    ]);
  }

  notice(level: 'info' | 'warning' | 'error', text: string, action?: NoticeAction): ChatPatch[] {
    const item: ChatItem = {
      kind: 'notice',
      id: `n-${++this.noticeCount}`,
      level,
      text,
      ...(action ? { action } : {}),
    };
    return this.patch([{ op: 'upsertItem', item }]);
  }

  event(e: AgentEvent): ChatPatch[] {
    switch (e.type) {
      case 'turn-started':
        return this.patch([{ op: 'upsertItem', item: this.assistant(e.turn) }]);
      case 'text-delta':
        return this.patch([{ op: 'appendText', id: this.assistant(e.turn).id, text: e.text }]);
      case 'tool-call-started':
        return this.patch([this.withTool(e.turn, { ...shownCall(e), state: 'running' })]);
      case 'tool-call-finished':
        return this.patch([
          this.withTool(e.turn, {
            ...shownCall(e),
            state: e.status,
            durationMs: e.durationMs,
            preview: e.preview,
            ...(e.storedAt ? { storedAt: e.storedAt } : {}),
          }),
        ]);
      case 'context-prepared':
        return this.patch(this.contextPatches(e));
      case 'call-finished': {
        const item = this.assistant(e.turn);
        return this.patch([
          { op: 'upsertItem', item: { ...item, streaming: false } },
          { op: 'meter', meter: { ...this.s.meter, costUnits: e.costSoFar } },
        ]);
      }
      case 'retry': {
        // What the failed attempt streamed is not part of the answer: the retry streams it again.
        const item = this.s.items.find((i) => i.id === this.assistant(e.turn).id);
        const clear: ChatPatch[] =
          item?.kind === 'assistant' && item.text ? [{ op: 'upsertItem', item: { ...item, text: '' } }] : [];
        return [
          ...this.patch(clear),
          ...this.notice(
            'warning',
            `Retrying (attempt ${e.attempt}): ${e.reason}${e.filtered ? ' (retry filtering applied)' : ''}`,
          ),
        ];
      }
      case 'budget':
        return this.patch([
          { op: 'meter', meter: { ...this.s.meter, budget: budgetState(e.event, this.s.meter.budget) } },
        ]);
      case 'error':
        return this.notice('error', describeError(e.error.kind, e.error.message), errorAction(e.error.kind));
      case 'done':
        return this.patch([...this.finishStreaming(), { op: 'status', status: e.reason }]);
      case 'stopped':
        return this.patch([
          ...this.finishStreaming(),
          ...(e.reason === 'aborted' ? [] : this.notice(e.reason === 'budget' ? 'warning' : 'error', e.message)),
          { op: 'status', status: e.reason },
        ]);
    }
  }

  private contextPatches(e: Extract<AgentEvent, { type: 'context-prepared' }>): ChatPatch[] {
    const maskedIds = e.masked.filter((m) => m.toolCallId).map((m) => m.toolCallId!);
    const lines = Object.fromEntries(e.masked.filter((m) => m.toolCallId).map((m) => [m.toolCallId!, m.lines]));
    const meter: ContextMeter = {
      ...this.s.meter,
      tokensInWindow: e.tokensSent,
      rawHistoryTokens: e.rawHistoryTokens,
      cachedTokens: e.cachedTokens,
      costUnits: e.costSoFar,
      calls: e.call,
      maskedObservations: e.masked.length,
      estimated: e.estimated,
    };
    return [
      { op: 'meter', meter },
      { op: 'point', point: { call: e.call, sent: e.tokensSent, raw: e.rawHistoryTokens, cached: e.cachedTokens } },
      ...(maskedIds.length ? [{ op: 'masked' as const, callIds: maskedIds, lines }] : []),
    ];
  }

  private assistant(turn: number): Extract<ChatItem, { kind: 'assistant' }> {
    const id = `a-${this.s.sessionId}-${turn}`;
    const found = this.s.items.find((i) => i.id === id);
    if (found?.kind === 'assistant') return found;
    return { kind: 'assistant', id, turn, text: '', streaming: true, tools: [] };
  }

  private withTool(turn: number, call: ChatToolCall): ChatPatch {
    const item = this.assistant(turn);
    const existing = item.tools.find((t) => t.callId === call.callId);
    const tools = existing
      ? item.tools.map((t) => (t.callId === call.callId ? { ...t, ...call } : t))
      : [...item.tools, call];
    return { op: 'upsertItem', item: { ...item, tools } };
  }

  private finishStreaming(): ChatPatch[] {
    return this.s.items
      .filter((i): i is Extract<ChatItem, { kind: 'assistant' }> => i.kind === 'assistant' && i.streaming)
      .map((i) => ({ op: 'upsertItem' as const, item: { ...i, streaming: false } }));
  }
}

/** A tool call as the card shows it: the tool's label (title, redacted arguments) when it has one. */
function shownCall(
  e: Extract<AgentEvent, { type: 'tool-call-started' | 'tool-call-finished' }>,
): Omit<ChatToolCall, 'state'> {
  return {
    callId: e.callId,
    tool: e.tool,
    arguments: e.label?.arguments ?? e.arguments,
    ...(e.label?.title ? { title: e.label.title } : {}),
  };
}

function budgetState(e: BudgetEvent, previous: ContextMeter['budget']): ContextMeter['budget'] {
  const limit = e.limit;
  const usedPercent = limit > 0 ? Math.round((e.used / limit) * 100) : (previous?.usedPercent ?? 0);
  const state: NonNullable<ContextMeter['budget']>['state'] =
    e.type === 'warning'
      ? 'warning'
      : e.type === 'backpressure'
        ? 'backpressure'
        : e.type === 'approval-requested'
          ? 'awaiting-approval'
          : e.type === 'exceeded' || e.type === 'approval-denied'
            ? 'exceeded'
            : 'ok';
  return { state, usedPercent, limit };
}

function describeError(kind: ProviderErrorKind, message: string): string {
  switch (kind) {
    case 'auth':
      return `The model provider refused the API key (${message}). Set a key with "Context Desk: Set API Key".`;
    case 'rate-limit':
      return `The provider is rate limiting (${message}). Wait a moment and send again.`;
    case 'context-overflow':
      return `The request did not fit the model's context window (${message}). Try the masking or hybrid strategy, or a model with a larger window.`;
    case 'network':
      return `The model endpoint cannot be reached (${message}). Check contextDesk.agent.baseUrl and that the server runs.`;
    case 'timeout':
      return `The model did not answer in time (${message}).`;
    case 'server':
      return `The provider failed (${message}). It may be temporary; send again.`;
    default:
      return message;
  }
}

function errorAction(kind: ProviderErrorKind): NoticeAction {
  return kind === 'auth' || kind === 'network'
    ? { label: 'Configure', action: 'configure' }
    : { label: 'Show Log', action: 'showLog' };
}
