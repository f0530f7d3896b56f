// Runs every strategy over every trajectory, yielding to the event loop between trajectories so that
// Ctrl-C (io.signal) is seen promptly even though replay itself never waits on I/O.
import type { Tokenizer, Trajectory } from '../../core/messages';
import {
  aggregate,
  replayTrajectory,
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

export class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runStrategies(
  trajectories: readonly Trajectory[],
  strategies: readonly StrategyName[],
  options: ReplayOptions,
  tokenizer: Tokenizer,
  hooks: { signal?: AbortSignal; onStep?: (done: number, total: number) => void } = {},
): Promise<StrategyRun[]> {
  const total = trajectories.length * strategies.length;
  let done = 0;
  const runs: StrategyRun[] = [];
  for (const strategy of strategies) {
    const replays: TrajectoryReplay[] = [];
    for (const t of trajectories) {
      await yieldToEventLoop();
      if (hooks.signal?.aborted) throw new Interrupted();
      replays.push(await replayTrajectory(t, strategy, options, tokenizer));
      hooks.onStep?.(++done, total);
    }
    runs.push({ strategy, totals: aggregate(replays), replays });
  }
  return runs;
}
