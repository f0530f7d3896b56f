// A past session, read back from its history file, as a state the loop can continue. The history keeps
// every message (sanitized) and every call's record: cost, calls and the budget's count go on from them.
import type { Message } from '../messages';
import {
  isMessageRecord,
  isSetAsideLine,
  isStateLine,
  renderMarkdown,
  type HistoryLine,
  type HistoryRecord,
  type MaskedInfo,
} from '../store/history';
import type { StrategyName } from '../strategies/types';
import { callLogFrom, callTotals } from './call-log';
import { invisibleCount, visibleText } from './tools/mcp';
import { parseSessionState, SESSION_STATE_VERSION, type SessionState } from './session-state';

export interface ResumeOptions {
  id: string;
  provider: string;
  model: string;
  strategy: StrategyName;
  now: number;
  /** Told why the file's strategy state was not taken up (the strategy then starts afresh). */
  onIgnored?: (why: string) => void;
}

/**
 * What a tool call without a recorded result answers when the session resumes. The run ended before the
 * result was written, which can be after the tool ran (a command, an edit): the model must check, not redo.
 */
export const MISSING_RESULT =
  "(result not recorded: the session ended before this tool call's result was saved; the tool may have run, so check its effects before running it again)";

/**
 * Messages in record order (by index; a repeated index keeps the first record), with every tool call
 * answered: providers reject a history where an assistant's tool call has no result. A message set aside
 * (not sent: alone over the window) is left out, as the model never saw it.
 */
export function messagesFromHistory(records: readonly HistoryLine[]): Message[] {
  const byIndex = new Map<number, HistoryRecord>();
  for (const r of records) if (isMessageRecord(r) && !byIndex.has(r.index)) byIndex.set(r.index, r);
  for (const r of records) if (isSetAsideLine(r)) byIndex.delete(r.index);
  const ordered = [...byIndex.values()].sort((a, b) => a.index - b.index).map((r) => r.message);
  const out: Message[] = [];
  let open: Message['toolCalls'] = [];
  // The open action's call ids, looked up once per result (a file from a repository may hold many).
  let openIds = new Set<string>();
  const answered = new Set<string>();
  const closeOpen = (): void => {
    for (const c of open ?? []) if (!answered.has(c.id)) out.push(missingResult(c.id, c.name));
    open = [];
    openIds = new Set();
    answered.clear();
  };
  for (const m of ordered) {
    if (m.role === 'tool') {
      // A result whose call is not open (its action was lost) would be rejected too: drop it.
      if (!m.toolCallId || !openIds.has(m.toolCallId) || answered.has(m.toolCallId)) continue;
      answered.add(m.toolCallId);
      out.push(m);
      continue;
    }
    closeOpen();
    out.push(m);
    if (m.role === 'assistant') {
      open = m.toolCalls ?? [];
      openIds = new Set(open.map((c) => c.id));
    }
  }
  closeOpen();
  return out;
}

function missingResult(id: string, name: string): Message {
  return { role: 'tool', origin: 'environment', toolCallId: id, name, content: MISSING_RESULT };
}

/**
 * The session state that continues a history file's conversation. Throws a clear error when empty. Origins
 * are kept; files written before origins existed get them by the chat rule (see `parseSessionState`).
 */
export function sessionStateFromHistory(records: readonly HistoryLine[], o: ResumeOptions): SessionState {
  const messages = messagesFromHistory(records);
  if (!messages.some((m) => m.role === 'user'))
    throw new Error(`Session ${o.id} has no messages to continue in its history file`);
  const log = callLogFrom(records);
  // The strategy goes on from the last state the file kept (checked against the conversation on parsing).
  const strategyState = records.findLast(isStateLine)?.state;
  return parseSessionState(
    {
      version: SESSION_STATE_VERSION,
      id: o.id,
      createdAt: o.now,
      provider: o.provider,
      model: o.model,
      strategy: o.strategy,
      messages,
      turns: messages.filter((m) => m.role === 'assistant').length,
      calls: log.calls,
      summaryCalls: log.summaryCalls,
      cost: callTotals(log).costUnits,
      // The budget goes on from what it had counted at the file's last record.
      spentTokens: log.spentTokens ?? 0,
      ...(strategyState !== undefined ? { strategyState } : {}),
      status: 'idle',
    },
    o.onIgnored,
  );
}

/**
 * The observations a history file says were masked when it was last written, by tool call id: the
 * records that repeat an earlier message's index and carry `masked` (see `HistoryWriter.appendMasked`).
 */
export function maskedFromHistory(records: readonly HistoryLine[]): Map<string, MaskedInfo> {
  const first = new Map<number, HistoryRecord>();
  const masked = new Map<string, MaskedInfo>();
  for (const r of records) {
    if (!isMessageRecord(r)) continue;
    const original = first.get(r.index);
    if (!original) first.set(r.index, r);
    else if (r.masked && original.message.role === 'tool' && original.message.toolCallId)
      masked.set(original.message.toolCallId, r.masked);
  }
  return masked;
}

/**
 * The Markdown of what a resume of this history file would send the model (every message but system
 * ones, which the current system prompt replaces), rendered from the JSONL itself. A session that came
 * with a repository ships its own `.md` beside it, which can say anything: it is not what is read back.
 */
export function resumeTranscript(records: readonly HistoryLine[], session: string): string {
  const messages = messagesFromHistory(records).filter((m) => m.role !== 'system');
  const body = messages.map((message, index) => renderMarkdown({ v: 1, session, index, at: '', message })).join('');
  // A model reads what a person cannot see (tag characters, zero-width and direction controls): shown.
  const shown = visibleText(body);
  const hidden = invisibleCount(body);
  const head = [
    `# Session ${session}: what resuming it sends`,
    '',
    `Rendered from its history file (not from the transcript beside it). The ${messages.filter((m) => m.role === 'user').length} user messages below would reach the model as your own instructions.` +
      (hidden > 0 ? ` It holds ${hidden} invisible characters, shown as \\u{…}: the model reads them.` : ''),
    '',
    '',
  ].join('\n');
  return head + shown;
}
