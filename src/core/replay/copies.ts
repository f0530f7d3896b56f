// Logs copy each other: a Claude Code session resumed or forked into a new file starts it with the old
// conversation's records (all of it, or what followed its last compaction), and an OpenHands run can be
// both a conversation folder and an evaluation line. Replaying both would count the same model calls
// twice. Calls are matched by the provider's response id:
// - a trajectory whose calls all appear in a longer one is a copy, replayed once, as part of that one;
// - calls that open a trajectory and were made in another (where they are not its opening copies) are
//   that other's: here they are context the continuation starts from, not calls it made.
// Calls shared any other way are counted by both, and said.

export interface CopyReport {
  /** For each trajectory, the index of the trajectory holding all its calls, when it is a copy. */
  copyOf: (number | undefined)[];
  /** For each kept trajectory, its opening calls made in another one: call indices, and that other. */
  copied: ({ calls: number[]; from: number } | undefined)[];
  /** Pairs of kept trajectories that share calls counted in both, with how many. */
  shared: { a: number; b: number; calls: number }[];
}

function wholeCopies(sets: readonly ReadonlySet<string>[], owners: Map<string, number[]>): (number | undefined)[] {
  const copyOf: (number | undefined)[] = sets.map(() => undefined);
  sets.forEach((set, i) => {
    const first = set.values().next();
    if (first.done) return;
    let best: number | undefined;
    // Any trajectory holding all of `set` holds its first id.
    for (const j of owners.get(first.value)!) {
      const other = sets[j]!;
      if (j === i || other.size < set.size || (other.size === set.size && j > i)) continue;
      let all = true;
      for (const k of set)
        if (!other.has(k)) {
          all = false;
          break;
        }
      if (all && (best === undefined || other.size > sets[best]!.size)) best = j;
    }
    copyOf[i] = best;
  });
  // A copy's holder may itself be a copy (A in B in C): point at the end of the chain.
  copyOf.forEach((_, i) => {
    let j = copyOf[i];
    for (let guard = 0; j !== undefined && copyOf[j] !== undefined && guard < sets.length; guard++) j = copyOf[j];
    copyOf[i] = j;
  });
  return copyOf;
}

/**
 * `calls[i]` are trajectory i's calls in order, each with its response id (undefined when the log kept
 * none). Trajectories without ids are never copies and never copied.
 */
export function findCopies(calls: readonly (readonly (string | undefined)[])[]): CopyReport {
  const sets = calls.map((list) => new Set(list.filter((k): k is string => k !== undefined)));
  const holders = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const k of set) {
      const list = holders.get(k);
      if (list) list.push(i);
      else holders.set(k, [i]);
    }
  });
  const copyOf = wholeCopies(sets, holders);
  const kept = (i: number) => copyOf[i] === undefined;
  const keptHolders = (k: string) => holders.get(k)!.filter(kept);
  // Each kept trajectory's opening run of calls that another kept trajectory also holds.
  const opening = calls.map((list, i) => {
    if (!kept(i)) return 0;
    let n = 0;
    while (n < list.length && list[n] !== undefined && keptHolders(list[n]!).length > 1) n++;
    return n;
  });
  const position = calls.map((list) => new Map(list.map((k, n) => [k, n])));
  const copied: CopyReport['copied'] = calls.map(() => undefined);
  const pairs = new Map<string, number>();
  for (const k of holders.keys()) {
    const list = keptHolders(k);
    if (list.length < 2) continue;
    const opens = (h: number) => position[h]!.get(k)! < opening[h]!;
    // Made where it is not an opening copy; when it opens every log that has it, in the first one.
    const owner = list.find((h) => !opens(h)) ?? list[0]!;
    for (const h of list) {
      if (h === owner) continue;
      if (opens(h)) {
        const c = (copied[h] ??= { calls: [], from: owner });
        c.calls.push(position[h]!.get(k)!);
      } else {
        const key = owner < h ? `${owner},${h}` : `${h},${owner}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  for (const c of copied) c?.calls.sort((a, b) => a - b);
  const shared = [...pairs].map(([key, n]) => {
    const [a, b] = key.split(',').map(Number) as [number, number];
    return { a, b, calls: n };
  });
  return { copyOf, copied, shared };
}
