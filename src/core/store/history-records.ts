// The records of a history file (`history/<session>.jsonl`) and how a reader tells them apart: messages
// (a repeated index is a mask record), model calls, the strategy's state and set-aside messages.
import type { Message } from '../messages';
import type { RedactionCounts } from './sanitize/secrets';

/** Where a masked observation's full text lives. */
export interface MaskedInfo {
  /** Workspace-relative path of the stored full text (absent: masked, not stored). */
  storedAt?: string;
  /** The placeholder the model saw instead. */
  placeholder?: string;
  /** Tokens the full text would have cost. */
  tokens?: number;
  /** Lines of the observation the placeholder replaced. */
  lines?: number;
}

/** One line of `history/<session>.jsonl`. */
export interface HistoryRecord {
  v: 1;
  /** The session id as given (the file name is its safe form). */
  session: string;
  /** 0-based position in the session. */
  index: number;
  /** ISO time of writing. */
  at: string;
  /** The message, sanitized (secrets redacted, terminal sequences stripped). */
  message: Message;
  /** Tokens of the message (from the caller, else counted with the writer's tokenizer). */
  tokens?: number;
  /** Turn number, when the caller knows it. */
  turn?: number;
  masked?: MaskedInfo;
  /** Secrets redacted from this message, by kind. */
  redactions?: RedactionCounts;
}

/**
 * One model call's accounting (`kind: 'call'`) or a summarizer call's (`kind: 'summary-call'`): a line
 * without `index` or `message`, so message readers skip it. `call` is the agent's record (CallRecord).
 */
export interface HistoryCallLine<T = Record<string, unknown>> {
  v: 1;
  session: string;
  kind: 'call' | 'summary-call';
  at: string;
  call: T;
}

/**
 * The strategy's own state (`kind: 'strategy'`: its checkpoint, its mask boundary) when it changed: a
 * resumed session goes on from the last one. Its text is sanitized like a message's.
 */
export interface HistoryStateLine {
  v: 1;
  session: string;
  kind: 'strategy';
  at: string;
  state: Record<string, unknown>;
}

/**
 * The person's message at `index` was not sent (it alone was over the model's window) and is out of the
 * conversation (`kind: 'set-aside'`): a resume leaves it out, as the model never saw it.
 */
export interface HistorySetAsideLine {
  v: 1;
  session: string;
  kind: 'set-aside';
  at: string;
  index: number;
}

export type HistoryLine = HistoryRecord | HistoryCallLine | HistoryStateLine | HistorySetAsideLine;

/** A message record (the first record of an index is the message; a repeated index is a mask record). */
export function isMessageRecord(r: unknown): r is HistoryRecord {
  const o = r as Partial<HistoryRecord> & { kind?: unknown };
  return (
    typeof o === 'object' &&
    o !== null &&
    o.kind === undefined &&
    typeof o.index === 'number' &&
    Number.isInteger(o.index) &&
    o.index >= 0 &&
    typeof o.message === 'object' &&
    o.message !== null
  );
}

export function isCallLine(r: unknown): r is HistoryCallLine {
  const o = r as Partial<HistoryCallLine>;
  return (
    typeof o === 'object' &&
    o !== null &&
    (o.kind === 'call' || o.kind === 'summary-call') &&
    typeof o.call === 'object' &&
    o.call !== null &&
    !Array.isArray(o.call)
  );
}

export function isStateLine(r: unknown): r is HistoryStateLine {
  const o = r as Partial<HistoryStateLine>;
  return (
    typeof o === 'object' && o !== null && o.kind === 'strategy' && typeof o.state === 'object' && o.state !== null
  );
}

export function isSetAsideLine(r: unknown): r is HistorySetAsideLine {
  const o = r as Partial<HistorySetAsideLine>;
  return typeof o === 'object' && o !== null && o.kind === 'set-aside' && Number.isInteger(o.index) && o.index! >= 0;
}
