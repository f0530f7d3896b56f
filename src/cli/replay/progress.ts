// A progress bar on stderr that appears only once a run has taken longer than `afterMs` (1 s): quick
// runs print nothing. On a terminal it redraws in place; elsewhere (logs, CI) it writes one line per
// 10 % so the log is not flooded.

export interface ProgressOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  now?: () => number;
  afterMs?: number;
  width?: number;
}

export class Progress {
  private readonly start: number;
  private readonly now: () => number;
  private readonly afterMs: number;
  private readonly width: number;
  private shown = false;
  private lastTenth = -1;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now;
    this.start = this.now();
    this.afterMs = options.afterMs ?? 1000;
    this.width = options.width ?? 30;
  }

  private get tty(): boolean {
    return this.options.stream.isTTY === true;
  }

  update(done: number, total: number, label = ''): void {
    if (total <= 0 || this.now() - this.start <= this.afterMs) return;
    const frac = Math.min(1, done / total);
    const tenth = Math.floor(frac * 10);
    if (!this.tty && tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.shown = true;
    const filled = Math.round(frac * this.width);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${done}/${total} ${label}`.trimEnd();
    this.options.stream.write(this.tty ? `\r\x1b[2K${bar}` : `${bar}\n`);
  }

  /** Clears the bar on a terminal so the results start on a clean line. */
  finish(): void {
    if (this.shown && this.tty) this.options.stream.write('\r\x1b[2K');
  }
}
