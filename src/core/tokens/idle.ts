// "Call me when nothing happened for a while": one timer, re-armed lazily (a busy caller touches it
// thousands of times a second; only the expiry looks at the clock). The timer never keeps a process alive.

export interface IdleScheduler {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: IdleScheduler = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class IdleTimer {
  private last = 0;
  private handle: unknown;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
    private readonly timers: IdleScheduler = realTimers,
  ) {
    if (!(ms > 0)) throw new Error(`idle time must be positive, got ${ms}`);
  }

  /** Something happened: the idle call is at least `ms` away. */
  touch(): void {
    this.last = this.timers.now();
    if (this.handle === undefined) this.arm(this.ms);
  }

  cancel(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(ms: number): void {
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      const quiet = this.timers.now() - this.last;
      if (quiet >= this.ms) this.onIdle();
      else this.arm(this.ms - quiet);
    }, ms);
  }
}
