// Replays logs file by file: each file is read, replayed with every strategy and let go before the next
// one is read, so memory follows the largest file, not the batch. Yields to the event loop between
// trajectories so that Ctrl-C (io.signal) is seen promptly even though replay never waits on I/O.
import type { Tokenizer } from '../../core/messages';
import { loadFile, TrajectoryError, type Found, type Skipped, type Trajectory } from '../../core/trajectories';
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
  const runs = strategies.map((strategy) => {
    const r = replays.get(strategy)!;
    return { strategy, totals: aggregate(r), replays: r };
  });
  return { runs, skipped, warnings, ignoredRecords };
}
