import type { BackpressureStep } from './types';

/** The delay for a usage ratio: the step with the highest threshold at or below it (0 below all). */
export function backpressureDelay(ratio: number, steps: readonly BackpressureStep[]): number {
  let delay = 0;
  let best = -Infinity;
  for (const s of steps) {
    if (ratio >= s.at && s.at > best) {
      best = s.at;
      delay = s.delayMs;
    }
  }
  return delay;
}

export function validateSteps(steps: readonly BackpressureStep[]): void {
  for (const s of steps) {
    if (!(s.at > 0) || !Number.isFinite(s.at)) throw new RangeError(`backpressure threshold must be > 0, got ${s.at}`);
    if (!(s.delayMs >= 0) || !Number.isFinite(s.delayMs))
      throw new RangeError(`backpressure delay must be >= 0 ms, got ${s.delayMs}`);
  }
}
