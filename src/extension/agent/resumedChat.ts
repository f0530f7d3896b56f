// A past session read back from its history file: the state the agent goes on from, and the panel's view
// of it (the conversation with what was masked, the meter and plot from its call records, and a notice
// that says what was read and what was skipped).
import * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import { loadSession } from '../../core/store/history';
import { maskedFromHistory, resumeTranscript, sessionStateFromHistory } from '../../core/agent/resume';
import { callLogFrom } from '../../core/agent/call-log';
import type { SessionState } from '../../core/agent/session-state';
import { isStrategyName } from '../../core/strategies/types';
import type { ChatSnapshot } from '../../protocol/chat';
import type { Settings } from '../settings';
import { itemsFromMessages } from './chatItems';
import { hiddenNotice, revealHiddenInMessages } from './foreignItems';
import { meterFromLog, seriesFromLog } from './meter';
import { providerKind } from './providers';

export interface PastSession {
  state: SessionState;
  loaded: Awaited<ReturnType<typeof loadSession>>;
  /** Why the file's strategy state was not taken up (the strategy starts afresh). */
  ignored?: string;
}

/**
 * Reads session `id` from the store, to go on as session `as` (another id when it continues in a file
 * of its own); throws with a message for the user when the file cannot be used.
 */
export async function readPastSession(store: ContextStore, id: string, s: Settings, as = id): Promise<PastSession> {
  const loaded = await loadSession(store, id);
  let ignored: string | undefined;
  const state = sessionStateFromHistory(loaded.records, {
    id: as,
    provider: providerKind(s['agent.provider']),
    model: s['agent.model'],
    strategy: isStrategyName(s.strategy) ? s.strategy : 'cache-aware',
    now: Date.now(),
    onIgnored: (why) => (ignored = why),
  });
  return { state, loaded, ...(ignored ? { ignored } : {}) };
}

/** The panel's snapshot for a resumed session (on top of a fresh chat's `base`) and the notice to show. */
export function resumedView(
  base: ChatSnapshot,
  id: string,
  { state, loaded, ignored }: PastSession,
  shownPath: string,
  foreign = false,
): { snapshot: ChatSnapshot; notice: string } {
  const { records, badLines, tornTail } = loaded;
  const masked = maskedFromHistory(records);
  // The meter, its plot and the budget go on from the file's call records.
  const log = callLogFrom(records);
  const meter = meterFromLog(
    {
      ...base.meter,
      maskedObservations: masked.size,
      maskedStored: [...masked.values()].filter((m) => m.storedAt).length,
    },
    log,
  );
  // A shipped session's messages can hide instructions in characters that draw nothing: shown.
  const all = itemsFromMessages(id, state.messages, Date.now(), masked);
  const { items, hidden } = foreign ? revealHiddenInMessages(all) : { items: all, hidden: 0 };
  const damaged = badLines.length + (tornTail ? 1 : 0) + log.skipped;
  const skipped = damaged ? ` ${damaged} damaged line${damaged === 1 ? ' was' : 's were'} skipped.` : '';
  const counted =
    log.calls.length > 0
      ? `The meter goes on from its ${log.calls.length} recorded call${log.calls.length === 1 ? '' : 's'}.`
      : 'The file has no call records (written before they were kept): the meter counts from here.';
  return {
    snapshot: { ...base, sessionId: id, items, meter, series: seriesFromLog(log.calls) },
    notice: `Resumed from ${shownPath} (${state.messages.length} messages). ${counted}${skipped}${ignored ? ` ${ignored}` : ''}${hiddenNotice(hidden)}`,
  };
}

/**
 * A history file this workspace did not write may have come with the repository: its "user" messages
 * would be sent to the model as the user's own. Resumed only when the user says so; or read first.
 */
export async function askAboutForeignSession(id: string): Promise<'resume' | 'read' | undefined> {
  const resume = 'Resume';
  const read = 'Open Transcript';
  const answer = await vscode.window.showWarningMessage(
    `This session's history (${id}) was not written by Context Desk in this workspace: it may have come with the repository or from another machine.`,
    {
      modal: true,
      detail:
        'Resuming shows its conversation and sends its messages to the model as your own instructions. Read the transcript first if you do not know where it came from.',
    },
    resume,
    read,
  );
  return answer === resume ? 'resume' : answer === read ? 'read' : undefined;
}

/**
 * Shows, before a session this workspace did not write is resumed, what resuming it would send: rendered
 * from its history file in an unsaved editor. Its own `.md` came with it and need not match (a shipped
 * transcript said "fix a typo" beside a history whose user message asked for `curl … | sh`).
 */
export async function showForeignTranscript(store: ContextStore, id: string): Promise<void> {
  const { records } = await loadSession(store, id);
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: resumeTranscript(records, id) });
  await vscode.window.showTextDocument(doc, { preview: true });
}

/**
 * Whether to go on with session `id`, which this workspace did not write: asked in a modal, and its
 * transcript shown first when asked for (`onError` tells the user when that fails).
 */
export async function resumeForeignSession(
  store: ContextStore,
  id: string,
  onError: (message: string) => void,
): Promise<boolean> {
  const answer = await askAboutForeignSession(id);
  // Read first: what the history file would send, not the transcript that came with it.
  if (answer === 'read')
    await showForeignTranscript(store, id).catch((e: unknown) => onError(e instanceof Error ? e.message : String(e)));
  return answer === 'resume';
}
