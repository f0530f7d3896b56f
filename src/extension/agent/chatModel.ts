// Builds the panel's chat view model from the agent's events: a pure translation, no VS Code calls.
import type {
  ChatItem,
  ChatPatch,
  ChatSnapshot,
  ChatToolCall,
  ContextMeter,
  ModelUnits,
  NoticeAction,
} from '../../protocol/chat';
import { applyChatPatches } from '../../protocol/chatPatch';
import type { AgentEvent } from '../../core/agent/events';
import type { CallRecord } from '../../core/agent/session-state';
import type { MoneyPrice } from '../../core/cost/pricing';
import { NO_TOTALS, budgetOfRecord, priceOf, reportedOf } from './meter';
import { countLines, outputLinesOf } from './chatItems';
import type { ProviderErrorInfo } from '../../core/agent/errors';
import { formatMaskPlaceholder } from '../../core/strategies/placeholder';
import { budgetState } from './meterBudget';
import { describeRunError, retryActivity } from './runErrors';
import { MAX_TURNS_SETTING, maxTurnsText, type TurnLimitScope } from './maxTurnsNotice';

export { emptyChat, emptyMeter, itemsFromMessages, outputLinesOf, STRATEGIES } from './chatItems';
export { maxTurnsText, type TurnLimitScope } from './maxTurnsNotice';
export { budgetState } from './meterBudget';

export interface ChatModelOptions {
  /** The model's price when known: money is shown beside units (a call in flight is priced with it). */
  money?: MoneyPrice;
  /** Where the turn limit that stopped a run was set (the notice names a workspace's lower value). */
  turnLimitScope?: (limit: number) => TurnLimitScope;
}

/**
 * Turns agent events into chat patches, keeping its own snapshot up to date with the same reducer the
 * webview uses, so a re-shown panel gets exactly what it showed before.
 */
export class ChatModel {
  private s: ChatSnapshot;
  private noticeCount = 0;
  /** The last provider error of the run: shown once, when the run gives up. */
  private lastError: ProviderErrorInfo | undefined;
  /** Money of the calls recorded so far (undefined once one was billed without a known price). */
  private usd: number | undefined = 0;
  /**
   * The current and earlier models' units of the calls recorded so far, added only to be compared with the
   * same sum later: what is in flight is the growth of the current model's units (earlier models' are fixed).
   */
  private unitsRecorded = 0;

  constructor(
    initial: ChatSnapshot,
    private readonly options: ChatModelOptions = {},
  ) {
    this.s = initial;
    this.unitsRecorded = initial.meter.costUnits + unitsOfAll(initial.meter.otherModelUnits);
    this.usd = this.unitsRecorded === 0 ? 0 : initial.meter.costUsd;
  }

  get snapshot(): ChatSnapshot {
    return this.s;
  }

  /** Applies patches made elsewhere (setup hints, past sessions) and returns them for posting. */
  patch(patches: ChatPatch[]): ChatPatch[] {
    this.s = applyChatPatches(this.s, patches);
    return patches;
  }

  /**
   * A new run starts: the last run's errors and status line go, the message is shown. So does an empty
   * turn of the last run (its call failed before any answer): the next answer has its turn number, and
   * would otherwise fill that item, above this message.
   */
  userMessage(text: string, at: number): ChatPatch[] {
    const stale = this.s.items
      .filter((i) => (i.kind === 'notice' && i.transient) || (i.kind === 'assistant' && !i.text && !i.tools.length))
      .map((i) => i.id);
    this.lastError = undefined;
    return this.patch([
      ...(stale.length ? [{ op: 'removeItems' as const, ids: stale }] : []),
      { op: 'activity', text: undefined },
      { op: 'upsertItem', item: { kind: 'user', id: `u-${this.s.items.length}-${at}`, text, at } },
      { op: 'status', status: 'running' },
    ]);
  }

  /**
   * The session set aside the person's message `text` (over the window alone, never sent): the latest
   * user item with that text is marked, which a reload of the panel shows too.
   */
  setAside(text: string): ChatPatch[] {
    const item = this.s.items.findLast((i) => i.kind === 'user' && i.text === text && !i.notSent);
    return item ? this.patch([{ op: 'notSent', id: item.id }]) : [];
  }

  /**
   * A message that was waiting for a stopped run and never went (New Chat came first): shown as not sent,
   * with `why`, and the `notSent` patch lets the panel put its text back in an empty message box.
   */
  unsent(text: string, why: string, at: number): ChatPatch[] {
    const id = `u-${this.s.items.length}-${at}`;
    return [
      ...this.patch([{ op: 'upsertItem', item: { kind: 'user', id, text, at, notSent: true } }]),
      ...this.notice('info', why, undefined, true),
      ...this.patch([{ op: 'notSent', id }]),
    ];
  }

  notice(level: 'info' | 'warning' | 'error', text: string, action?: NoticeAction, transient = false): ChatPatch[] {
    const item: ChatItem = {
      kind: 'notice',
      id: `n-${++this.noticeCount}-${Date.now().toString(36)}`,
      level,
      text,
      ...(action ? { action } : {}),
      ...(transient ? { transient } : {}),
    };
    return this.patch([{ op: 'upsertItem', item }]);
  }

  /** The full output's line count of a tool result, once the host knows it. */
  storedOutput(callId: string, content: string): ChatPatch[] {
    const item = this.s.items.find((i) => i.kind === 'assistant' && i.tools.some((t) => t.callId === callId));
    if (item?.kind !== 'assistant') return [];
    // The full size is in a preview's `Full output` line; without one the model had the whole output.
    const full = outputLinesOf(content);
    const shown = full === undefined ? { outputLines: countLines(content), shownWhole: true } : { outputLines: full };
    const tools = item.tools.map((t) => (t.callId === callId ? { ...t, ...shown } : t));
    return this.patch([{ op: 'upsertItem', item: { ...item, tools } }]);
  }

  event(e: AgentEvent): ChatPatch[] {
    switch (e.type) {
      case 'turn-started':
        return this.patch([{ op: 'upsertItem', item: this.assistant(e.turn) }]);
      case 'text-delta':
        return this.patch([{ op: 'appendText', id: this.assistant(e.turn).id, text: e.text }]);
      case 'tool-call-started':
        return this.patch([this.withTool(e.turn, { ...shownCall(e), state: 'running' })]);
      case 'tool-call-finished': {
        // A stored output's size is in its preview's last line; a short one kept in a file is whole. A
        // preview cut for the panel says neither: the host tells (`storedOutput`) from the whole message.
        const full = e.storedAt ? outputLinesOf(e.preview) : undefined;
        const cut = e.preview.endsWith('…');
        const lines = full ?? (cut ? undefined : countLines(e.preview));
        return this.patch([
          this.withTool(e.turn, {
            ...shownCall(e),
            state: e.status,
            durationMs: e.durationMs,
            preview: e.preview,
            ...(e.storedAt
              ? { storedAt: e.storedAt, ...(full === undefined && !cut ? { shownWhole: true } : {}) }
              : {}),
            ...(lines !== undefined ? { outputLines: lines } : {}),
          }),
        ]);
      }
      case 'context-prepared':
        return this.patch(this.contextPatches(e));
      case 'call-finished': {
        const item = this.assistant(e.turn);
        this.recorded(e.record.cost, e.record.costUsd, e.costSoFar, e.otherModelUnits);
        return this.patch([
          { op: 'upsertItem', item: { ...item, streaming: false } },
          {
            op: 'meter',
            meter: this.withBudget(
              this.withCost(this.afterCall(e.record), e.costSoFar, e.otherModelUnits),
              e.record.budget,
            ),
          },
          { op: 'activity', text: undefined },
        ]);
      }
      case 'summary-call':
        this.recorded(e.record.cost, e.record.costUsd, e.costSoFar, e.otherModelUnits);
        return this.patch([
          {
            op: 'meter',
            meter: this.withBudget(
              this.withCost(withSummaryUnits(this.s.meter, e.record), e.costSoFar, e.otherModelUnits),
              e.record.budget,
            ),
          },
        ]);
      case 'retry': {
        // What the failed attempt streamed is not part of the answer: the retry streams it again.
        const item = this.s.items.find((i) => i.id === this.assistant(e.turn).id);
        const clear: ChatPatch[] =
          item?.kind === 'assistant' && item.text ? [{ op: 'upsertItem', item: { ...item, text: '' } }] : [];
        return this.patch([
          ...clear,
          { op: 'activity', text: retryActivity(e.attempt, e.reason, e.delayMs, e.filtered) },
        ]);
      }
      case 'budget':
        return this.patch([
          { op: 'meter', meter: { ...this.s.meter, budget: budgetState(e.event, this.s.meter.budget) } },
        ]);
      case 'error':
        // Shown once, when the run gives up (a retried error is the status line's business).
        this.lastError = e.error;
        return [];
      case 'warning':
        // The run goes on: the notice stays until the next message.
        return this.notice('warning', e.message, { label: 'Show Log', action: 'showLog' }, true);
      case 'done':
        return this.patch([
          ...this.finishStreaming(),
          { op: 'activity', text: undefined },
          ...(e.reason === 'max-turns'
            ? this.notice('info', this.maxTurnsNotice(e.limit), MAX_TURNS_SETTING, true)
            : []),
          { op: 'status', status: e.reason },
        ]);
      case 'stopped':
        // A message set aside is no failure of the agent: the notice says what happened, not an error.
        return this.patch([
          ...this.finishStreaming(),
          { op: 'activity', text: undefined },
          ...(e.setAside
            ? this.notice('warning', e.message, undefined, true)
            : this.stoppedNotice(e.reason, e.message)),
          { op: 'status', status: e.setAside ? 'not-sent' : e.reason },
        ]);
    }
  }

  private stoppedNotice(reason: 'aborted' | 'budget' | 'error', message: string): ChatPatch[] {
    if (reason === 'aborted') return [];
    if (reason === 'budget') return this.notice('warning', message, undefined, true);
    if (this.lastError) {
      const { text, action } = describeRunError(this.lastError, this.s.setup.endpoint);
      this.lastError = undefined;
      return this.notice('error', text, action, true);
    }
    return this.notice('error', message, { label: 'Show Log', action: 'showLog' }, true);
  }

  /** A call (or summarizer call) is final: its money joins the sum. */
  private recorded(cost: number, costUsd: number | undefined, costSoFar: number, other?: ModelUnits[]): void {
    this.usd = this.usd === undefined || (costUsd === undefined && cost > 0) ? undefined : this.usd + (costUsd ?? 0);
    this.unitsRecorded = costSoFar + unitsOfAll(other);
  }

  /** The meter with a call's record added to its totals, and what the provider reported for it. */
  private afterCall(r: CallRecord): ContextMeter {
    const t = this.s.meter.totals ?? NO_TOTALS;
    const u = r.usage;
    const { reported: _old, ...rest } = this.s.meter;
    const reported = reportedOf(r);
    return {
      ...rest,
      // The provider's cache figure once it reported the call (the record keeps it), not our estimate.
      cachedTokens: r.cachedTokens,
      totals: {
        tokensSent: t.tokensSent + r.tokensSent,
        cachedTokens: t.cachedTokens + r.cachedTokens,
        outputTokens: t.outputTokens + r.outputTokens,
        reportedCalls: t.reportedCalls + (u?.inputTokens !== undefined ? 1 : 0),
        reportedInputTokens: t.reportedInputTokens + (u?.inputTokens ?? 0),
        reportedCachedTokens: t.reportedCachedTokens + (u?.cachedTokens ?? 0),
      },
      ...(reported ? { reported } : {}),
    };
  }

  /**
   * The budget line after a call, from what the session budget counted once it was spent (its output
   * included): budget events come only at marks (warning, slowing down, over), so between them the line
   * would stay where the last one left it. A summary call's record carries no limit: the line's own.
   */
  private withBudget(meter: ContextMeter, b: { spentTokens: number; limit?: number } | undefined): ContextMeter {
    const limit = b?.limit ?? meter.budget?.limit;
    if (!b || limit === undefined) return meter;
    return { ...meter, budget: budgetOfRecord({ spentTokens: b.spentTokens, limit }) };
  }

  /**
   * Units as the session counts them (the current model's, earlier models' apart: never added); money as
   * the recorded calls' sum, plus the call in flight at the model's price. No money once a call was billed
   * without a known price: a partial sum would mislead.
   */
  private withCost(meter: ContextMeter, units: number, other: ModelUnits[] | undefined): ContextMeter {
    const { costUsd: _old, price: _p, otherModelUnits: _o, ...rest } = meter;
    const money = this.options.money;
    // Only the current model's units grow between records: the earlier models' are fixed when it starts.
    const earlier = unitsOfAll(other);
    const inFlight = units + earlier - this.unitsRecorded;
    const usd =
      this.usd === undefined || (inFlight > 0 && !money)
        ? undefined
        : this.usd + (inFlight > 0 ? inFlight * money!.usdPerUnit : 0);
    return {
      ...rest,
      costUnits: units,
      ...(other !== undefined && earlier > 0 ? { otherModelUnits: other.map((m) => ({ ...m })) } : {}),
      ...(usd !== undefined && units + earlier > 0 ? { costUsd: usd } : {}),
      ...(money ? { price: priceOf(money) } : meter.price ? { price: meter.price } : {}),
    };
  }

  private contextPatches(e: Extract<AgentEvent, { type: 'context-prepared' }>): ChatPatch[] {
    const withId = e.masked.filter((m) => m.toolCallId);
    const maskedIds = withId.map((m) => m.toolCallId!);
    const lines = Object.fromEntries(withId.map((m) => [m.toolCallId!, m.lines]));
    const placeholders = Object.fromEntries(
      withId.map((m) => [m.toolCallId!, formatMaskPlaceholder(m.lines, m.storedAt)]),
    );
    const meter: ContextMeter = this.withCost(
      {
        ...this.s.meter,
        tokensInWindow: e.tokensSent,
        rawHistoryTokens: e.rawHistoryTokens,
        cachedTokens: e.cachedTokens,
        calls: e.call,
        maskedObservations: e.masked.length,
        maskedStored: e.masked.filter((m) => m.storedAt).length,
        estimated: e.estimated,
      },
      e.costSoFar,
      e.otherModelUnits,
    );
    return [
      { op: 'meter', meter },
      { op: 'point', point: { call: e.call, sent: e.tokensSent, raw: e.rawHistoryTokens, cached: e.cachedTokens } },
      ...(maskedIds.length ? [{ op: 'masked' as const, callIds: maskedIds, lines, placeholders }] : []),
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

  private maxTurnsNotice(limit: number | undefined): string {
    return maxTurnsText(limit, limit === undefined ? undefined : this.options.turnLimitScope?.(limit));
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

/** Every earlier model's units added: only for bookkeeping differences, never shown (they are not one unit). */
function unitsOfAll(other: readonly ModelUnits[] | undefined): number {
  let n = 0;
  for (const m of other ?? []) n += m.units;
  return n;
}

/** The meter with a summary call's units added apart when they are another model's (see `unitsOf`). */
function withSummaryUnits(m: ContextMeter, r: { cost: number; unitsOf?: string }): ContextMeter {
  if (r.unitsOf === undefined) return { ...m };
  const list = (m.summaryUnits ?? []).map((e) => ({ ...e }));
  const own = list.find((e) => e.model === r.unitsOf);
  if (own) own.units += r.cost;
  else list.push({ model: r.unitsOf, units: r.cost });
  return { ...m, summaryUnits: list };
}
