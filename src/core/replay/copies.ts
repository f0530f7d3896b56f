// Logs copy each other: a Claude Code session continued (or forked) in a new file starts with every record
// of the old one, and an OpenHands run can be both a conversation folder and an evaluation line. Replaying
// both would count the same model calls twice. Calls are matched by the provider's response id: a
// trajectory whose calls all appear in a longer one is a copy and is replayed once, as part of that one.

export interface CopyReport {
  /** For each trajectory, the index of the trajectory holding all its calls, when it is a copy. */
  copyOf: (number | undefined)[];
  /** Pairs of kept trajectories that share some calls (counted in both), with how many. */
  shared: { a: number; b: number; calls: number }[];
}

/**
 * `keys[i]` are trajectory i's response ids. A trajectory is a copy of another that holds every one of
 * its ids and more (or the same ids and comes first). Trajectories without ids are never copies.
 */
export function findCopies(keys: readonly ReadonlySet<string>[]): CopyReport {
  const owners = new Map<string, number[]>();
  keys.forEach((set, i) => {
    for (const k of set) {
      const list = owners.get(k);
      if (list) list.push(i);
      else owners.set(k, [i]);
    }
  });
  const copyOf: (number | undefined)[] = keys.map(() => undefined);
  keys.forEach((set, i) => {
    const first = set.values().next();
    if (first.done) return;
    let best: number | undefined;
    // Any trajectory holding all of `set` holds its first id.
    for (const j of owners.get(first.value)!) {
      if (j === i) continue;
      const other = keys[j]!;
      if (other.size < set.size || (other.size === set.size && j > i)) continue;
      let all = true;
      for (const k of set)
        if (!other.has(k)) {
          all = false;
          break;
        }
      if (all && (best === undefined || other.size > keys[best]!.size)) best = j;
    }
    copyOf[i] = best;
  });
  // A copy's holder may itself be a copy (A in B in C): point at the end of the chain.
  copyOf.forEach((_, i) => {
    let j = copyOf[i];
    for (let guard = 0; j !== undefined && copyOf[j] !== undefined && guard < keys.length; guard++) j = copyOf[j];
    copyOf[i] = j;
  });
  const pairs = new Map<string, number>();
  for (const list of owners.values()) {
    const kept = list.filter((i) => copyOf[i] === undefined);
    for (let x = 0; x < kept.length; x++)
      for (let y = x + 1; y < kept.length; y++) {
        const key = `${kept[x]},${kept[y]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
  }
  const shared = [...pairs].map(([key, calls]) => {
    const [a, b] = key.split(',').map(Number) as [number, number];
    return { a, b, calls };
  });
  return { copyOf, shared };
}
