// A time limit for one search. A plain timer, not AbortSignal.timeout: that one does not keep the process
// alive, so a search waiting on a stuck stream in a process with nothing else to do would never end.

export interface Deadline {
  /** Aborted when the time is up. */
  signal: AbortSignal;
  /** Whether the time ran out (not a stop by the caller). */
  readonly expired: boolean;
  /** Cancels the timer (call when the search ends). */
  clear(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${ms} ms`)), ms);
  return {
    signal: controller.signal,
    get expired() {
      return controller.signal.aborted;
    },
    clear: () => clearTimeout(timer),
  };
}
