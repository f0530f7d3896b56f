// Runs one piece of work at the next frame, once however often it is asked for before then: the panel
// takes the newest chat this way, since a fast stream sends many chunks a frame and each render of a
// long message costs the whole message again. A hidden view draws no frames, so a timer runs it too.

export class NextFrame {
  private pending: { raf: number; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(private readonly run: () => void) {}

  /** Runs the work at the next frame (or soon, if a hidden view draws no frames), unless already asked. */
  ask(): void {
    if (this.pending) return;
    const run = (): void => {
      if (!this.cancel()) return;
      this.run();
    };
    this.pending = { raf: requestAnimationFrame(run), timer: setTimeout(run, 250) };
  }

  /** Drops the frame asked for, if any; true when there was one. */
  cancel(): boolean {
    const f = this.pending;
    if (!f) return false;
    cancelAnimationFrame(f.raf);
    clearTimeout(f.timer);
    this.pending = undefined;
    return true;
  }
}
