// The History list: past sessions from the store's history files: title (first instruction), turns, and
// calls and cost summed from the file's call records (files written before those existed show none).
import { summarizeHistoryFile, type HistorySummary } from '../../core/agent/history-summary';
import { listSessions } from '../../core/store/history';
import { localTime } from '../../core/numbers';
import type { ContextStore } from '../../core/store/context-store';
import type { SessionSummary } from '../../protocol/chat';

export const LISTED = 50;

/** Summaries are cached per file version (size and time), so refreshing the list reads only what changed. */
const cache = new Map<string, { key: string; summary: HistorySummary }>();

async function summary(file: string, key: string): Promise<HistorySummary> {
  const hit = cache.get(file);
  if (hit?.key === key) return hit.summary;
  const s = await summarizeHistoryFile(file);
  cache.set(file, { key, summary: s });
  if (cache.size > 4 * LISTED) cache.delete(cache.keys().next().value!);
  return s;
}

/**
 * `isOwn`: whether this workspace wrote the session's file (others are marked `foreign`); `isContinued`:
 * whether an own file continues a session from elsewhere (marked `continued`: its first messages were copied).
 */
export async function listPastSessions(
  store: ContextStore,
  isOwn: (id: string, identity: string) => boolean = () => true,
  isContinued: (id: string) => boolean = () => false,
): Promise<SessionSummary[]> {
  const entries = (await listSessions(store)).slice(0, LISTED);
  return mapFew(entries, READ_AT_ONCE, async (e) => {
    const s = await summary(e.jsonl, `${e.bytes}:${e.modifiedMs}`).catch(() => ({ turns: 0 }) as HistorySummary);
    const created = s.firstAt ? Date.parse(s.firstAt) : NaN;
    return {
      id: e.name,
      title: s.title ?? `Session of ${localTime(new Date(e.modifiedMs))}`,
      createdAt: Number.isFinite(created) ? created : e.modifiedMs,
      updatedAt: e.modifiedMs,
      turns: s.turns,
      ...(!isOwn(e.name, e.identity) ? { foreign: true } : isContinued(e.name) ? { continued: true } : {}),
      ...(s.calls !== undefined ? { calls: s.calls, costUnits: s.costUnits ?? 0 } : {}),
      ...(s.costUsd !== undefined ? { costUsd: s.costUsd } : {}),
      ...(s.summaryUnits !== undefined ? { summaryUnits: s.summaryUnits } : {}),
      ...(s.otherModelUnits !== undefined ? { otherModelUnits: s.otherModelUnits } : {}),
    };
  });
}

/** Files summarized at once: each may hold a long line in memory. */
const READ_AT_ONCE = 4;

/** `items` mapped through `fn`, in order, with at most `n` calls pending at a time. */
async function mapFew<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}
