import type { BudgetEvent } from '../../../src/core/budget';

/** A clock and sleep that advance virtual time only: delays are observed, never waited for. */
export function virtualTime(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
    slept,
  };
}

export function recorder(): { events: BudgetEvent[]; onEvent: (e: BudgetEvent) => void } {
  const events: BudgetEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}
