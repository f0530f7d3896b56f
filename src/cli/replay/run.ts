// Replays logs file by file: each file is read, replayed with every strategy and let go before the next
// one is read, so memory follows the largest file, not the batch. Yields to the event loop between
// trajectories so that Ctrl-C (io.signal) is seen promptly even though replay never waits on I/O.
import type { Tokenizer } from '../../core/messages';
import { loadFile, TrajectoryError, type Found, type Skipped, type Trajectory } from '../../core/trajectories';
import { findCopies } from '../../core/replay/copies';
import { trajectoryFingerprint } from '../../core/replay/fingerprint';
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
  /** Each call's identity across logs, in order (undefined where the log kept no response id). */
  calls: (string | undefined)[];
  /** What it holds, hashed: an equal one is the same run given twice. */
  fingerprint: string;
  /** What its importer (and the copy check) said about it. */
  warnings: string[];
}

/**
 * A call's identity across logs: the provider's response id with its recorded figures (a copy keeps
 * both; a gateway that gives every response the same id does not make different calls look alike).
 */
function callKeys(t: Trajectory): (string | undefined)[] {
  return (t.calls ?? []).map((c) =>
    c.responseId === undefined
      ? undefined
      : `${c.responseId}\u0000${c.recorded?.inputTokens ?? ''}\u0000${c.recorded?.outputTokens ?? ''}`,
  );
}

const callCount = (n: number) => (n === 1 ? 'model call' : `${n} model calls`);

/**
 * Leaves out what another log already counts: trajectories whose calls are all in another (said as
 * skipped), and the opening calls a continuation copied from the log that made them (said as a warning;
 * their messages stay as the context it starts from). Returns, per trajectory (in `seen` order), the calls
 * to leave out (all of them for a copy), and the warnings of the trajectories kept.
 */
/** Names trajectory `j` to `t`: by its id, or by its file when both have one id (found under two arguments). */
const otherName = (seen: readonly Seen[], j: number, t: Seen) => (seen[j]!.id === t.id ? seen[j]!.file : seen[j]!.id);

function dropCopies(
  seen: readonly Seen[],
  skipped: Skipped[],
): { drop: (Set<number> | 'all' | undefined)[]; warnings: TrajectoryWarning[] } {
  // By position, not id: two arguments can hold files with the same relative path.
  const drop: (Set<number> | 'all' | undefined)[] = seen.map(() => undefined);
  const other = (j: number, t: Seen) => otherName(seen, j, t);
  // The same log given twice (copied files, one folder replayed twice): counted once, at its first.
  const first = new Map<string, number>();
  const twice = seen.map((s, i) => {
    const j = first.get(s.fingerprint);
    if (j === undefined) first.set(s.fingerprint, i);
    return j;
  });
  twice.forEach((j, i) => {
    if (j === undefined) return;
    const t = seen[i]!;
    drop[i] = 'all';
    skipped.push({
      file: t.file,
      error: `${t.id}: the same messages, calls and recorded figures as ${other(j, t)} (the same log given twice): replayed once, there`,
      group: 'the same log as another (replayed once)',
    });
  });
  // Response ids of a log given twice would match its first copy: it is already left out.
  const { copyOf, copied, shared } = findCopies(seen.map((s, i) => (twice[i] === undefined ? s.calls : [])));
  const whole = (i: number, holder: number, n: number) => {
    const t = seen[i]!;
    drop[i] = 'all';
    skipped.push({
      file: t.file,
      error:
        `${t.id}: ${n === 1 ? 'its model call is' : `its ${n} model calls are all`} in ${seen[holder]!.id} too ` +
        '(the same run, continued or logged again there): replayed once, there',
      group: "a copy of another log's calls (replayed once)",
    });
  };
  copyOf.forEach((j, i) => {
    if (j !== undefined) whole(i, j, new Set(seen[i]!.calls.filter((k) => k !== undefined)).size);
  });
  copied.forEach((c, i) => {
    if (!c) return;
    const t = seen[i]!;
    if (c.calls.length === t.calls.length) return whole(i, c.from, c.calls.length);
    drop[i] = new Set(c.calls);
    t.warnings.push(
      `its first ${callCount(c.calls.length)} ${c.calls.length === 1 ? 'is a copy' : 'are copies'} of calls made in ${seen[c.from]!.id} ` +
        '(a session resumed or forked from it): counted there; here they are the context it starts from',
    );
  });
  const warnings = seen.flatMap((t, i) =>
    drop[i] === 'all' ? [] : t.warnings.map((warning) => ({ trajectory: t.id, file: t.file, warning })),
  );
  for (const { a, b, calls } of shared)
    warnings.push({
      trajectory: seen[a]!.id,
      file: seen[a]!.file,
      warning: `${calls === 1 ? '1 of its model calls is' : `${calls} of its model calls are`} also in ${seen[b]!.id} (the same responses): both count them`,
    });
  return { drop, warnings };
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
      const fingerprint = trajectoryFingerprint(t);
      seen.push({ id: t.id, file: t.source, calls: callKeys(t), fingerprint, warnings: [...(t.warnings ?? [])] });
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
  const { drop, warnings } = dropCopies(seen, skipped);
  const runs = strategies.map((strategy) => {
    // One replay per trajectory and strategy, in `seen` order.
    const r = replays.get(strategy)!.flatMap((t, i) => {
      const d = drop[i];
      if (d === undefined) return [t];
      if (d === 'all') return [];
      // A total recorded for the whole run covers the calls counted elsewhere too: it is not kept.
      const { recordedCost: _total, ...rest } = t;
      return [{ ...rest, calls: t.calls.filter((c) => !d.has(c.call)) }];
    });
    return { strategy, totals: aggregate(r), replays: r };
  });
  return { runs, skipped, warnings, ignoredRecords };
}
