// Builds a trajectory's messages and model calls as an importer walks a log: a call sends every message
// of the current context before its reply; compaction starts a new context; a condenser can forget
// messages or send a shorter copy in a message's place; a rejected reply (not kept in the log) is a
// call with no output.
import type { Message } from '../messages';
import type { MessageRange, ModelCall, RecordedUsage } from './types';

export class TrajectoryBuilder {
  readonly messages: Message[] = [];
  readonly calls: ModelCall[] = [];
  private start = 0;
  private readonly forgotten = new Set<number>();
  /** Message index -> index of the copy later calls send in its place. */
  private readonly replaced = new Map<number, number>();
  /**
   * Where a context leaves the plain order (forgotten or replaced messages), sorted when a call needs it:
   * a call costs these, not all the messages.
   */
  private breaks: number[] | undefined = [];

  /** Appends a message; returns its index. */
  push(m: Message): number {
    this.messages.push(m);
    return this.messages.length - 1;
  }

  get last(): Message | undefined {
    return this.messages[this.messages.length - 1];
  }

  /** The context a call would send now (before message `end`). */
  private context(end: number): MessageRange[] {
    const ranges: MessageRange[] = [];
    let from = this.start;
    this.breaks ??= [...new Set([...this.forgotten, ...this.replaced.keys()])].sort((a, b) => a - b);
    for (const i of this.breaks) {
      if (i < this.start) continue;
      if (i >= end) break;
      if (i > from) ranges.push([from, i]);
      const copy = this.forgotten.has(i) ? undefined : this.replaced.get(i);
      if (copy !== undefined) ranges.push([copy, copy + 1]);
      from = i + 1;
    }
    if (end > from || ranges.length === 0) ranges.push([from, Math.max(from, end)]);
    return ranges;
  }

  /** Records a call whose reply is message `output` (already pushed). Returns the call's index. */
  call(output: number, recorded?: RecordedUsage): number {
    this.calls.push({ context: this.context(output), output, ...(recorded ? { recorded } : {}) });
    return this.calls.length - 1;
  }

  /** Records a call whose reply the log did not keep: it sent everything in context so far. */
  rejectedCall(recorded?: RecordedUsage): number {
    this.calls.push({ context: this.context(this.messages.length), ...(recorded ? { recorded } : {}) });
    return this.calls.length - 1;
  }

  /** Later calls send only messages pushed from now on (a compaction boundary). */
  reset(): void {
    this.start = this.messages.length;
    this.forgotten.clear();
    this.replaced.clear();
    this.breaks = [];
  }

  /** The indices of the messages a call would send now, in order. */
  live(): number[] {
    const out: number[] = [];
    for (let i = this.start; i < this.messages.length; i++) if (!this.forgotten.has(i)) out.push(i);
    return out;
  }

  /** Later calls no longer send message `index` (a condenser forgot it). */
  forget(index: number): void {
    if (this.forgotten.has(index)) return;
    this.forgotten.add(index);
    this.breaks = undefined;
  }

  /**
   * Later calls send `copy` where they sent message `index` (a tool result the agent cleared). The copy is
   * appended to `messages` but sent only in that place; earlier calls keep the original.
   */
  replace(index: number, copy: Message): void {
    const at = this.push(copy);
    this.forget(at);
    this.replaced.set(index, at);
    this.breaks = undefined;
  }
}
