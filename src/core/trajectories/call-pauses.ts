// The pause before each model call, from the times a log stamps its records: what a prompt cache's
// lifetime is measured against. Only a certain lower bound counts: from the previous call's first answer
// record (its prompt had been read by then) to the latest record the next call sends (written before it
// was sent). An answer's own time is not used for its call: generation time is not a pause.

/** A record's time in ms since the epoch, when it carries a readable one. */
function timeOf(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.length > 40) return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

export class CallPauses {
  /** When the previous call's prompt had certainly been read. */
  private read: number | undefined;
  /** The latest time of a record the next call sends. */
  private sent: number | undefined;

  /** A record the next call sends (a person's message, a tool result, an attachment), stamped `time`. */
  input(time: unknown): void {
    const t = timeOf(time);
    if (t !== undefined && (this.sent === undefined || t > this.sent)) this.sent = t;
  }

  /** A new call whose first answer record is stamped `time`: the pause before it, when the times tell it. */
  call(time: unknown): number | undefined {
    const idle = this.read !== undefined && this.sent !== undefined ? this.sent - this.read : undefined;
    this.read = timeOf(time);
    this.sent = undefined;
    return idle !== undefined && idle >= 0 ? idle : undefined;
  }
}
