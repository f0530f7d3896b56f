// The History list: past sessions from the store's history files (title = first instruction, turns),
// with the model calls and cost this window recorded while it ran them. The history file keeps messages,
// not accounting (issue 14 adds call records there), so calls and cost come from workspace state.
import type * as vscode from 'vscode';
import { summarizeHistoryFile, type HistorySummary } from '../../core/agent/history-summary';
import { listSessions } from '../../core/store/history';
import type { ContextStore } from '../../core/store/context-store';
import type { SessionSummary } from '../../protocol/chat';

const STATS_KEY = 'contextDesk.sessionStats';
const KEEP = 200;
export const LISTED = 50;

export interface SessionStats {
  calls: number;
  costUnits: number;
  costUsd?: number;
  updatedAt: number;
}

/** Calls and cost per session id, kept in the workspace's state (not in the store, not in git). */
export class SessionStatsBook {
  constructor(private readonly memento: vscode.Memento) {}

  all(): Record<string, SessionStats> {
    const raw = this.memento.get<unknown>(STATS_KEY);
    return typeof raw === 'object' && raw !== null ? (raw as Record<string, SessionStats>) : {};
  }

  get(id: string): SessionStats | undefined {
    const s = this.all()[id];
    return s && Number.isFinite(s.calls) && Number.isFinite(s.costUnits) ? s : undefined;
  }

  async set(id: string, stats: SessionStats): Promise<void> {
    const all = { ...this.all(), [id]: stats };
    const ids = Object.keys(all).sort((a, b) => (all[b]?.updatedAt ?? 0) - (all[a]?.updatedAt ?? 0));
    for (const old of ids.slice(KEEP)) delete all[old];
    await this.memento.update(STATS_KEY, all);
  }
}

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

export async function listPastSessions(store: ContextStore, stats: SessionStatsBook): Promise<SessionSummary[]> {
  const entries = (await listSessions(store)).slice(0, LISTED);
  const book = stats.all();
  return Promise.all(
    entries.map(async (e) => {
      const s = await summary(e.jsonl, `${e.bytes}:${e.modifiedMs}`).catch(() => ({ turns: 0 }) as HistorySummary);
      const created = s.firstAt ? Date.parse(s.firstAt) : NaN;
      const st = book[e.name];
      return {
        id: e.name,
        title: s.title ?? `Session of ${new Date(e.modifiedMs).toLocaleString()}`,
        createdAt: Number.isFinite(created) ? created : e.modifiedMs,
        updatedAt: e.modifiedMs,
        turns: s.turns,
        ...(st ? { calls: st.calls, costUnits: st.costUnits } : {}),
        ...(st?.costUsd !== undefined ? { costUsd: st.costUsd } : {}),
      };
    }),
  );
}
