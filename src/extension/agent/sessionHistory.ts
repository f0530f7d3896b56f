// Writes a chat session to its history file as it runs: new messages in order, and a mask record when an
// observation is masked, so a resumed session shows what the model saw. One queue keeps every write in
// order (a mask record always follows the message it is about).
import type { MaskedObservation } from '../../core/agent/events';
import type { Message } from '../../core/messages';
import type { Logger } from '../../core/ports';
import { HistoryWriter, type HistoryRecord } from '../../core/store/history';
import { formatMaskPlaceholder } from '../../core/strategies/placeholder';

export class SessionHistory {
  private queue: Promise<void> = Promise.resolve();
  /** File index of each tool result, by tool call id. */
  private readonly indexOf = new Map<string, number>();
  private readonly maskRecorded = new Set<string>();

  private constructor(
    private readonly writer: HistoryWriter,
    private written: number,
    private readonly logger: Logger,
  ) {}

  /**
   * `written`: messages of the session already in the file (a resumed session's); `records`: the file's
   * records, to find their indices and what was masked already.
   */
  static open(
    writer: HistoryWriter,
    written: number,
    records: readonly HistoryRecord[],
    logger: Logger,
  ): SessionHistory {
    const h = new SessionHistory(writer, written, logger);
    const seen = new Set<number>();
    for (const r of records) {
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

  /** Appends the messages the file does not have yet. */
  sync(messages: readonly Message[]): Promise<void> {
    return this.enqueue(async () => {
      for (const m of messages.slice(this.written)) {
        const r = await this.writer.append(m);
        if (m.role === 'tool' && m.toolCallId) this.indexOf.set(m.toolCallId, r.index);
      }
      this.written = Math.max(this.written, messages.length);
    });
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
      .catch((e: unknown) => this.logger.error(`Writing the chat history failed: ${String(e)}`));
    return this.queue;
  }
}
