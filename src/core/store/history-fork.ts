// A session this workspace did not write (one a cloned repository shipped in its store) is continued in
// a history file of its own, never appended to the one that came with it: that file's `.md` transcript
// need not match its records (it can say "fix a typo" beside a record asking for `curl … | sh`), and a
// later Open Transcript, or a summary's "Full history:" pointer, would show the shipped text as if it
// were this conversation. The copy is rendered from the records, which are what a resume sends.
import { promises as fsp } from 'node:fs';
import type { Tokenizer } from '../messages';
import type { ContextStore } from './context-store';
import {
  HistoryWriter,
  isCallLine,
  isMessageRecord,
  isSetAsideLine,
  isStateLine,
  type HistoryLine,
  type HistoryRecord,
} from './history';

/**
 * Writes `records` (read from another session's file) as the start of the history of the new session
 * `into`: messages, mask records, call records, strategy states and set-aside lines. Returns the lines as written, to
 * continue from.
 * Refuses when `into` already has a history file.
 */
export async function forkHistory(
  store: ContextStore,
  records: readonly HistoryLine[],
  into: string,
  options: { tokenizer?: Tokenizer } = {},
): Promise<HistoryLine[]> {
  const target = store.historyPaths(into).jsonl;
  if (
    await fsp.lstat(target).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${store.displayPath(target)} exists already; the session is not continued into it.`);
  // Resuming reads messages by index (the first record of each), so they are written in that order,
  // renumbered from 0; every other line follows the message it followed in the file (a call record its
  // answer, a mask record its message). A file written here is copied in its own order.
  const first = new Map<number, HistoryRecord>();
  const after = new Map<number, HistoryLine[]>();
  let last = -1;
  for (const r of records) {
    if (isMessageRecord(r) && !first.has(r.index)) {
      first.set(r.index, r);
      last = Math.max(last, r.index);
    } else if (isMessageRecord(r) || isCallLine(r) || isStateLine(r) || isSetAsideLine(r))
      after.set(last, [...(after.get(last) ?? []), r]);
  }
  const writer = await HistoryWriter.open(store, into, options);
  const out: HistoryLine[] = [];
  const renumbered = new Map<number, number>();
  const copy = async (r: HistoryLine): Promise<void> => {
    if (isMessageRecord(r)) {
      const index = renumbered.get(r.index);
      if (index !== undefined && r.masked) out.push(await writer.appendMasked(index, r.message, r.masked));
    } else if (isCallLine(r)) {
      await writer.appendCall(r.kind, r.call);
      out.push(r);
    } else if (isStateLine(r)) {
      await writer.appendState(r.state);
      out.push(r);
    } else if (isSetAsideLine(r)) {
      const index = renumbered.get(r.index);
      if (index !== undefined) out.push(await writer.appendSetAside(index));
    }
  };
  try {
    for (const r of after.get(-1) ?? []) await copy(r);
    for (const [old, r] of [...first].sort(([a], [b]) => a - b)) {
      const extra = {
        ...(typeof r.tokens === 'number' ? { tokens: r.tokens } : {}),
        ...(typeof r.turn === 'number' ? { turn: r.turn } : {}),
        ...(r.masked ? { masked: r.masked } : {}),
      };
      const written = await writer.append(r.message, extra);
      renumbered.set(old, written.index);
      out.push(written);
      for (const line of after.get(old) ?? []) await copy(line);
    }
  } finally {
    await writer.close();
  }
  return out;
}
