// One run at a time of a refresh that many callers ask for (a watcher firing once per file, every chat
// start): calls during a run share one more run, whose result they all get. The run in flight may have
// read its inputs before the caller's change, and an older run finishing last would overwrite a newer one.
export class CoalescedRuns<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  constructor(private readonly start: () => Promise<T>) {}

  /** The run in flight, if any. */
  get inFlight(): Promise<T> | undefined {
    return this.running;
  }

  /** The result of a run that started after this call. */
  run(): Promise<T> {
    const inFlight = this.running;
    if (inFlight)
      return (this.next ??= inFlight
        .catch(() => undefined)
        .then(() => {
          this.next = undefined;
          return this.run();
        }));
    const run = this.start().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
