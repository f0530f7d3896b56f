// Replays logs file by file: each file is read, replayed with every strategy and let go before the next
// one is read, so memory follows the largest file, not the batch. Yields to the event loop between
// trajectories so that Ctrl-C (io.signal) is seen promptly even though replay never waits on I/O.
import type { Tokenizer } from '../../core/messages';
import { loadFile, TrajectoryError, type Found, type Skipped, type Trajectory } from '../../core/trajectories';
import { findCopies } from '../../core/replay/copies';
import {
  aggregate,
  replayTrajectory,
  type ReplayHooks,
  type ReplayOptions,
  type StrategyName,
  type StrategyTotals,
  type TrajectoryReplay,
} from '../../core/replay/replay';

export interface StrategyRun {
  strategy: StrategyName;
  totals: StrategyTotals;
  replays: TrajectoryReplay[];
}

/** A warning about one trajectory: what its importer read differently or dropped. */
export interface TrajectoryWarning {
  trajectory: string;
  file: string;
  warning: string;
}

export interface ReplayBatch {
  runs: StrategyRun[];
  skipped: Skipped[];
  warnings: TrajectoryWarning[];
  /** Records skipped by design (kinds a newer tool version writes), counted. */
  ignoredRecords: number;
}

export class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RunHooks {
  signal?: AbortSignal;
  onFile?: (done: number, total: number) => void;
  /** Per trajectory and strategy: hooks for that replay (the context dump), and a call when it is done. */
  replayHooks?: (t: Trajectory, strategy: StrategyName) => Promise<ReplayHooks & { done?: () => Promise<void> }>;
}

interface Seen {
  id: string;
  file: string;
  calls: Set<string>;
}

/**
 * A call's identity across logs: the provider's response id with its recorded figures (a copy keeps
 * both; a gateway that gives every response the same id does not make different calls look alike).
 */
function callKeys(t: Trajectory): Set<string> {
  const keys = new Set<string>();
  for (const c of t.calls ?? [])
    if (c.responseId !== undefined)
      keys.add(`${c.responseId}\u0000${c.recorded?.inputTokens ?? ''}\u0000${c.recorded?.outputTokens ?? ''}`);
  return keys;
}

/** Finds trajectories whose calls all appear in another; says so and returns their ids, to leave out. */
function dropCopies(seen: readonly Seen[], skipped: Skipped[], warnings: TrajectoryWarning[]): Set<string> {
  const { copyOf, shared } = findCopies(seen.map((s) => s.calls));
  const copies = new Set<string>();
  copyOf.forEach((j, i) => {
    if (j === undefined) return;
    const t = seen[i]!;
    copies.add(t.id);
    skipped.push({
      file: t.file,
      error:
        `${t.id}: ${t.calls.size === 1 ? 'its model call is' : `its ${t.calls.size} model calls are all`} in ` +
        `${seen[j]!.id} too (the same run, continued or logged again there): replayed once, there`,
      group: "a copy of another log's calls (replayed once)",
    });
  });
  for (let k = warnings.length - 1; k >= 0; k--) if (copies.has(warnings[k]!.trajectory)) warnings.splice(k, 1);
  for (const { a, b, calls } of shared)
    warnings.push({
      trajectory: seen[a]!.id,
      file: seen[a]!.file,
      warning: `${calls === 1 ? '1 of its model calls is' : `${calls} of its model calls are`} also in ${seen[b]!.id} (the same responses): both count them`,
    });
  return copies;
}

export async function replayFiles(
  files: readonly Found[],
  strategies: readonly StrategyName[],
  options: ReplayOptions,
  tokenizer: Tokenizer,
  hooks: RunHooks = {},
): Promise<ReplayBatch> {
  const replays = new Map<StrategyName, TrajectoryReplay[]>(strategies.map((s) => [s, []]));
  const skipped: Skipped[] = [];
  const warnings: TrajectoryWarning[] = [];
  let ignoredRecords = 0;
  const seen: Seen[] = [];
  for (const [i, found] of files.entries()) {
    hooks.onFile?.(i, files.length);
    let trajectories: Trajectory[];
    try {
      trajectories = await loadFile(found);
    } catch (e) {
      if (!(e instanceof TrajectoryError)) throw e;
      skipped.push({ file: e.file, error: e.reason, group: e.group });
      continue;
    }
    for (const t of trajectories) {
      seen.push({ id: t.id, file: t.source, calls: callKeys(t) });
      for (const w of t.warnings ?? []) warnings.push({ trajectory: t.id, file: t.source, warning: w });
      ignoredRecords += t.ignoredRecords ?? 0;
      for (const strategy of strategies) {
        await yieldToEventLoop();
        if (hooks.signal?.aborted) throw new Interrupted();
        const h = (await hooks.replayHooks?.(t, strategy)) ?? {};
        replays.get(strategy)!.push(await replayTrajectory(t, strategy, options, tokenizer, h));
        await h.done?.();
      }
    }
  }
  const copies = dropCopies(seen, skipped, warnings);
  const runs = strategies.map((strategy) => {
    const r = replays.get(strategy)!.filter((t) => !copies.has(t.trajectoryId));
    return { strategy, totals: aggregate(r), replays: r };
  });
  return { runs, skipped, warnings, ignoredRecords };
}
