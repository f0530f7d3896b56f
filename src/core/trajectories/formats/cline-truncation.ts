// Cline keeps the whole conversation in `api_conversation_history.json`, but when the window fills it
// leaves a range of that history out of every later request (`conversationHistoryDeletedRange`,
// inclusive indices; the first exchange is always kept). The range is not in the history file: it is
// recorded beside it, on every row of `ui_messages.json`, with the index of the history's last message
// when the row was written (`conversationHistoryIndex`). Replayed without it, a long task's later calls
// were counted with everything Cline had dropped.
import { isObject, type Json } from '../json';
import { plural, type Notes } from '../notes';
import type { ImportedRun } from '../importer';
import type { MessageRange } from '../types';

export const CLINE_UI_MESSAGES = 'ui_messages.json';

export interface DeletedRange {
  /** The history's last message when the row was written. */
  index: number;
  /** Inclusive indices of the history left out of requests from then on. */
  range: readonly [number, number];
}

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The ranges the rows of `ui_messages.json` recorded, in the order they were written. */
export function deletedRanges(ui: Json): DeletedRange[] {
  const out: DeletedRange[] = [];
  for (const row of Array.isArray(ui) ? ui : []) {
    if (!isObject(row) || !isIndex(row.conversationHistoryIndex)) continue;
    const r = row.conversationHistoryDeletedRange;
    if (!Array.isArray(r) || r.length !== 2 || !isIndex(r[0]) || !isIndex(r[1]) || r[0] > r[1]) continue;
    out.push({ index: row.conversationHistoryIndex, range: [r[0], r[1]] });
  }
  return out;
}

/** `context` without the messages `[from, to)`; undefined when it holds none of them. */
function without(context: readonly MessageRange[], from: number, to: number): MessageRange[] | undefined {
  if (!context.some(([x, y]) => x < to && y > from)) return undefined;
  const out: MessageRange[] = [];
  for (const [x, y] of context) {
    if (y <= from || x >= to) out.push([x, y]);
    else {
      if (x < from) out.push([x, from]);
      if (y > to) out.push([to, y]);
    }
  }
  return out;
}

/** The index of the file's message that holds run message `m` (`starts` ascending). */
function fileIndex(starts: readonly number[], m: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= m) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Each call leaves out the range recorded last before its reply was added (rows are written while
 * the reply streams, after the request's own truncation). Returns how many calls it changed.
 */
export function applyDeletedRanges(run: ImportedRun, rows: readonly DeletedRange[], notes: Notes): number {
  const starts = run.messageStarts;
  if (!starts || starts.length === 0 || rows.length === 0) return 0;
  let changed = 0;
  let next = 0; // rows are walked once, in the order they were written, as the calls go on
  let found: DeletedRange | undefined;
  let last = -1;
  for (const call of run.calls) {
    if (call.output === undefined) continue;
    const reply = fileIndex(starts, call.output);
    if (reply < last) [next, found] = [0, undefined];
    last = reply;
    // The last row written while the history still ended before this reply.
    while (next < rows.length && rows[next]!.index < reply) found = rows[next++];
    if (!found) continue;
    const [a, b] = found.range;
    if (b >= reply) {
      notes.add(
        'cline-range-bad',
        (n) => `${plural(n, 'recorded range')} reaching past the reply it was for: not applied`,
      );
      continue;
    }
    const context = without(call.context, starts[a]!, starts[b + 1] ?? run.messages.length);
    if (context) {
      call.context = context;
      changed++;
    }
  }
  if (changed > 0)
    notes.say(
      `${plural(changed, 'call')} sent without the part of the history Cline had left out to fit the window (recorded in ${CLINE_UI_MESSAGES} beside the history)`,
    );
  return changed;
}
