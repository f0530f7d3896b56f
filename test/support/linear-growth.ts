// Linear time asserted by growth, not by a fixed bound: the same reading is timed on an input of n and
// of 4n bytes in one run, and the larger may take at most 8 times as long (linear is about 4, quadratic
// 16). A machine under load slows both alike, where a fixed bound failed at load 15 (16-24 s against
// 15 s). A round whose ratio is over is run again (a pause of the collector or the scheduler lands in
// one timing, not in three); a generous absolute cap still stops a reading that is slow at any size.
import assert from 'node:assert/strict';

/** Largest allowed time(4n) / time(n). */
export const MAX_GROWTH = 8;
/** Timings below this are noise: the smaller one is taken as at least this. */
const FLOOR_MS = 20;
/** Rounds before a ratio over MAX_GROWTH fails. */
const ROUNDS = 3;
/** No reading of the larger input may take longer than this, however loaded the machine. */
export const ABSOLUTE_CAP_MS = 90_000;

function timed(read: () => void): number {
  const started = performance.now();
  read();
  return performance.now() - started;
}

/**
 * Asserts that `read(input(n))` grows linearly: reading input(4 * n) takes less than MAX_GROWTH times
 * reading input(n), in the best of up to ROUNDS rounds. Returns the ratio seen.
 */
export function assertLinearGrowth(input: (bytes: number) => string, n: number, read: (text: string) => void): number {
  const small = input(n);
  const large = input(4 * n);
  read(small); // warm-up: compiling the reader is not part of what is measured
  let best = Infinity;
  for (let round = 0; round < ROUNDS && best >= MAX_GROWTH; round++) {
    const t1 = Math.max(
      timed(() => read(small)),
      FLOOR_MS,
    );
    const t4 = timed(() => read(large));
    assert.ok(t4 < ABSOLUTE_CAP_MS, `took ${Math.round(t4)} ms on ${large.length} characters`);
    best = Math.min(best, t4 / t1);
  }
  assert.ok(
    best < MAX_GROWTH,
    `4 times the input took ${best.toFixed(1)} times as long (at most ${MAX_GROWTH}): a reading is no longer linear`,
  );
  return best;
}

/** assertLinearGrowth for a reading that is asynchronous (a stream through the store, say). */
export async function assertLinearGrowthAsync(
  input: (bytes: number) => string,
  n: number,
  read: (text: string) => Promise<void>,
): Promise<number> {
  const small = input(n);
  const large = input(4 * n);
  const timedAsync = async (): Promise<[number, number]> => {
    let started = performance.now();
    await read(small);
    const t1 = Math.max(performance.now() - started, FLOOR_MS);
    started = performance.now();
    await read(large);
    return [t1, performance.now() - started];
  };
  await read(small); // warm-up
  let best = Infinity;
  for (let round = 0; round < ROUNDS && best >= MAX_GROWTH; round++) {
    const [t1, t4] = await timedAsync();
    assert.ok(t4 < ABSOLUTE_CAP_MS, `took ${Math.round(t4)} ms on ${large.length} characters`);
    best = Math.min(best, t4 / t1);
  }
  assert.ok(
    best < MAX_GROWTH,
    `4 times the input took ${best.toFixed(1)} times as long (at most ${MAX_GROWTH}): a reading is no longer linear`,
  );
  return best;
}
