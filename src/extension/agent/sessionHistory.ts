// Writes a chat session to its history file as it runs: new messages in order, a mask record when an
// observation is masked (a resumed session shows what the model saw), and each call's record right after
// the answer it produced. One queue keeps every write in order (a record always follows what it is about).
import type { MaskedObservation } from '../../core/agent/events';
import type { AgentSession } from '../../core/agent/session';
import type { CallRecord, SummaryCallRecord } from '../../core/agent/session-state';
import type { Message, Tokenizer } from '../../core/messages';
import type { ContextStore } from '../../core/store/context-store';
import type { StrategyState } from '../../core/strategies/strategy-state';
import type { Logger } from '../../core/ports';
import { HistoryWriter, isMessageRecord, type HistoryLine } from '../../core/store/history';
import { formatMaskPlaceholder } from '../../core/strategies/placeholder';
import { roundDecimalText } from '../../protocol/money';
import { fileIdentity, type WrittenSessions } from './writtenSessions';
import { formatCount } from '../../core/numbers';

export class SessionHistory {
  private queue: Promise<void> = Promise.resolve();
  /** File index of each tool result, by tool call id. */
  private readonly indexOf = new Map<string, number>();
  private readonly maskRecorded = new Set<string>();
  /** File index of the last message written (the only one a session sets aside). */
  private lastIndex: number | undefined;

  private constructor(
    private readonly writer: HistoryWriter,
    private written: number,
    private readonly logger: Logger,
    private readonly afterWrite?: () => Promise<void>,
  ) {}

  /**
   * `written`: messages of the session already in the file (a resumed session's); `records`: the file's
   * records, to find their indices and what was masked already. `afterWrite`: called after each write
   * (to note the file's new state as this workspace's own, see WrittenSessions).
   */
  static open(
    writer: HistoryWriter,
    written: number,
    records: readonly HistoryLine[],
    logger: Logger,
    afterWrite?: () => Promise<void>,
  ): SessionHistory {
    const h = new SessionHistory(writer, written, logger, afterWrite);
    const seen = new Set<number>();
    for (const r of records) {
      if (!isMessageRecord(r)) continue;
      const id = r.message?.toolCallId;
      if (seen.has(r.index)) {
        if (r.masked && id) h.maskRecorded.add(id);
        continue;
      }
      seen.add(r.index);
      if (r.message?.role === 'tool' && id) h.indexOf.set(id, r.index);
    }
    return h;
  }

  /** Appends the messages the file does not have yet (of those `messages` holds now). */
  sync(messages: readonly Message[]): Promise<void> {
    // A copy: the session goes on adding to the array meanwhile, and may take its last message out.
    const now = messages.slice();
    return this.enqueue(() => this.write(now, now.length));
  }

  /**
   * Records that the session's message at `index` (its last) was not sent and is out of the conversation;
   * the next message is written after it. Nothing to record when writing it failed.
   */
  setAside(index: number): Promise<void> {
    return this.enqueue(async () => {
      if (this.written !== index + 1 || this.lastIndex === undefined) return;
      this.written = index;
      await this.writer.appendSetAside(this.lastIndex);
    });
  }

  private async write(messages: readonly Message[], upTo: number): Promise<void> {
    // Counted one message at a time: after a failed append the next sync starts at that message, not
    // over from the first of its batch (which would write the ones before it twice).
    while (this.written < upTo) {
      const m = messages[this.written]!;
      const r = await this.writer.append(m);
      this.lastIndex = r.index;
      if (m.role === 'tool' && m.toolCallId) this.indexOf.set(m.toolCallId, r.index);
      this.written++;
    }
  }

  /**
   * Appends a model call's record after the messages so far: an answered call's record follows its
   * answer, which is how readers pair them.
   */
  call(messages: readonly Message[], record: CallRecord): Promise<void> {
    const now = messages.slice();
    const copy = structuredClone(record);
    return this.enqueue(async () => {
      await this.write(now, now.length);
      await this.writer.appendCall('call', copy, callNote(copy));
    });
  }

  summaryCall(record: SummaryCallRecord): Promise<void> {
    const copy = { ...record };
    return this.enqueue(() =>
      this.writer.appendCall(
        'summary-call',
        copy,
        `summarizer call · ${formatCount(copy.inputTokens)} tokens in, ${formatCount(copy.outputTokens)} out`,
      ),
    );
  }

  /** Records the strategy's state (a resumed session goes on from the last one). */
  strategyState(state: StrategyState): Promise<void> {
    const copy = structuredClone(state);
    return this.enqueue(() => this.writer.appendState(copy));
  }

  /** Records newly masked observations (each once). */
  masked(observations: readonly MaskedObservation[]): Promise<void> {
    const fresh = observations.filter((o) => o.toolCallId && !this.maskRecorded.has(o.toolCallId));
    for (const o of fresh) this.maskRecorded.add(o.toolCallId!);
    if (fresh.length === 0) return this.queue;
    return this.enqueue(async () => {
      for (const o of fresh) {
        const index = this.indexOf.get(o.toolCallId!);
        if (index === undefined) continue; // not written (a damaged file): nothing to annotate
        const placeholder = formatMaskPlaceholder(o.lines, o.storedAt);
        const message: Message = { role: 'tool', toolCallId: o.toolCallId!, content: placeholder };
        if (o.tool) message.name = o.tool;
        if (o.storedAt) message.storedAt = o.storedAt;
        await this.writer.appendMasked(index, message, {
          placeholder,
          lines: o.lines,
          ...(o.storedAt ? { storedAt: o.storedAt } : {}),
        });
      }
    });
  }

  flush(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.writer.close();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue
      .then(work)
      .finally(() => this.afterWrite?.())
      .catch((e: unknown) => this.logger.error(`Writing the chat history failed: ${String(e)}`));
    return this.queue;
  }
}

/**
 * What a session reports, routed to its history file once both exist (the session is built first). A tool
 * result is written as soon as it is in, not with the next answer: after a crash while the next call is
 * under way, a resumed session still knows the tool ran and what it returned. A person's message too, as
 * soon as it is accepted: a crash during the first call of its run must not lose it. (An answer waits for
 * its call's record, which follows it.)
 */
export class HistorySink {
  history?: SessionHistory;
  session?: { readonly messages: readonly Message[] };

  /** Each call's record follows its answer. */
  readonly onCall = (record: CallRecord): void => void this.history?.call(this.messages(), record);

  readonly onSummaryCall = (record: SummaryCallRecord): void => void this.history?.summaryCall(record);

  readonly onStrategyState = (state: StrategyState): void => void this.history?.strategyState(state);

  readonly onSetAside = (_m: Message, index: number): void => void this.history?.setAside(index);

  readonly onMessage = (m: Message): void => {
    if (m.role === 'tool' || m.origin === 'person') void this.history?.sync(this.messages());
  };

  private messages(): readonly Message[] {
    return this.session?.messages ?? [];
  }
}

/** The transcript's line for a call: what was sent and what it cost. */
function callNote(r: CallRecord): string {
  const n = (v: number): string => formatCount(v);
  const reported = r.usage?.inputTokens !== undefined ? `, provider reported ${n(r.usage.inputTokens)}` : '';
  const cost = r.costUsd !== undefined ? `$${roundDecimalText(r.costUsd, 6)}` : `${n(Math.round(r.cost))} cost units`;
  const failed = r.error ? ` · failed (${r.error})` : '';
  return `call ${r.call} · ${n(r.tokensSent)} tokens sent${reported} · ${cost}${failed}`;
}

/**
 * Opens the history file of the chat `sessionId` for a session that has `written` messages in it
 * already (a continued one: counted after the session put its own system prompt in place of the
 * file's), and lists it as one this workspace wrote, again after each write of ours (a write by anyone
 * else makes it not ours).
 */
export async function openOwnHistory(
  store: ContextStore,
  sessionId: string,
  o: {
    tokenizer: Tokenizer;
    written: number;
    records: readonly HistoryLine[];
    sessions: WrittenSessions;
    logger: Logger;
  },
): Promise<SessionHistory> {
  const writer = await HistoryWriter.open(store, sessionId, { tokenizer: o.tokenizer });
  const own = async (): Promise<void> => o.sessions.add(sessionId, await fileIdentity(writer.paths.jsonl));
  await own();
  return SessionHistory.open(writer, o.written, o.records, o.logger, own);
}

/**
 * A chat's session and its history file. `own` false: New Chat came while they were built, so they are
 * the (stopped) run's alone, never the new chat's, and the run closes the file it opened.
 */
export interface BuiltSession {
  session: AgentSession;
  history: SessionHistory;
  own: boolean;
}
