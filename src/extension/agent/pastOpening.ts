// Reading a past session so that the chat can go on from it. One this workspace wrote goes on in its own
// history file; one it did not write (a cloned repository can ship one) is asked about first and goes on
// in a copy (history-fork.ts), the files it came in left as they were and still counted as foreign.
// Its readable transcript opens in an editor.
import type { ContextStore } from '../../core/store/context-store';
import { transcriptFile } from '../../core/store/history';
import { forkHistory } from '../../core/store/history-fork';
import type { Settings } from '../settings';
import type { ShowStoreFile } from '../store/storeFileView';
import { newSessionId } from './chatSnapshots';
import { readPastSession, resumeForeignSession, type PastSession } from './resumedChat';
import type { SessionHistory } from './sessionHistory';
import { fileIdentity, type WrittenSessions } from './writtenSessions';

export type PastRecords = Parameters<typeof SessionHistory.open>[2];

export interface OpenedPast {
  /** The session the chat goes on in: `id` itself, or a new one for a foreign session. */
  into: string;
  foreign: boolean;
  past: PastSession;
  records: PastRecords;
}

/** The past session `id`, read to go on from; undefined (after `error` said why) when it cannot be. */
export async function openPastSession(
  store: ContextStore,
  id: string,
  written: WrittenSessions,
  settings: Settings,
  error: (message: string) => void,
): Promise<OpenedPast | undefined> {
  const foreign = !written.has(id, await fileIdentity(store.historyPaths(id).jsonl));
  if (foreign && !(await resumeForeignSession(store, id, error))) return undefined;
  const into = foreign ? newSessionId() : id;
  let past: PastSession;
  let records: PastRecords;
  try {
    past = await readPastSession(store, id, settings, into);
    records = foreign ? await forkHistory(store, past.loaded.records, into) : past.loaded.records;
  } catch (e) {
    error(e instanceof Error ? e.message : String(e));
    return undefined;
  }
  await written.add(into, await fileIdentity(store.historyPaths(into).jsonl));
  // Its copied messages stay from elsewhere: a later resume still shows their hidden characters.
  if (foreign) await written.addContinued(into);
  return { into, foreign, past, records };
}

/**
 * Opens the readable transcript of session `id` read-only, as read from the checked file; a file that is
 * a link is refused (`error` says why).
 */
export async function showTranscript(
  store: ContextStore,
  id: string,
  error: (message: string) => void,
  show: ShowStoreFile,
): Promise<boolean> {
  let file: string;
  try {
    file = await transcriptFile(store, id);
  } catch (e) {
    error(e instanceof Error ? e.message : String(e));
    return false;
  }
  return show(store.root, file, { what: 'the transcript', refused: error });
}
