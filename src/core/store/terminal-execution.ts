// One command execution of a terminal log being captured (the log itself: terminal-log.ts). Chunks
// are sanitized as a stream (rendered as a person saw them, secrets redacted, markers escaped) and
// appended in order; `end` drains what `read()` still delivers, then writes the footer and the index
// record.
import type { SanitizingStream, SanitizeStats } from './sanitize/pipeline';
import { wholeOutputRedactor } from './sanitize/printed-secrets';
import type { UnicodeVersion } from './sanitize/unicode-v11';
import { sanitizingStream } from './store-writer';
import { escapeMarkers, footerLine, noteLine, type IndexEnd } from './terminal-log-format';
import type { ExecutionResult, ExecutionSummary, TerminalLogWriter } from './terminal-log';

// Bounded waits keep the process alive on purpose: a log must get its footer before node exits.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One command execution being captured: push chunks as they arrive (or `consume` a stream), then `end`. */
export class ExecutionCapture {
  private readonly stream: SanitizingStream;
  private readonly timer: NodeJS.Timeout;
  private chain: Promise<void>;
  private flushQueued = false;
  private accepting = true;
  private dropping = false;
  private consuming: Promise<void> | undefined;
  private ending: Promise<ExecutionSummary> | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private release!: () => void;
  /** Settles once this block is complete on disk (or failed): the next block may start. */
  readonly done = new Promise<void>((resolve) => (this.release = resolve));

  /** @internal created by `TerminalLogWriter.begin`. */
  constructor(
    private readonly writer: TerminalLogWriter,
    readonly exec: string,
    readonly seq: number,
    private readonly startedAt: number,
    /** Resolves when the previous block is complete; then the header is written. */
    turn: Promise<void>,
    writeHeader: () => Promise<void>,
    private readonly options: {
      cols?: number;
      rows?: number;
      unicodeVersion?: UnicodeVersion;
      flushIntervalMs: number;
      drainMs: number;
      /** The command prints a secret: every line of its output is redacted whole. */
      wholeOutputSecret?: boolean;
    },
  ) {
    // A failed header write leaves the error in the writer (the next append throws it); the block goes on.
    this.chain = turn.then(writeHeader).catch(() => undefined);
    const whole = options.wholeOutputSecret ? wholeOutputRedactor() : undefined;
    this.stream = sanitizingStream(
      (text) => writer.appendRaw(text),
      { ansi: 'render', terminal: options },
      whole ? (text) => escapeMarkers(whole(text)) : escapeMarkers,
    );
    this.timer = setInterval(() => {
      if (this.flushQueued) return;
      this.flushQueued = true;
      void this.enqueue(() => {
        this.flushQueued = false;
        return this.stream.flush();
      }).catch(() => undefined);
    }, options.flushIntervalMs);
    this.timer.unref();
  }

  /** Adds a raw output chunk (as `execution.read()` yields it). Chunks may cut escape sequences and code points. */
  push(chunk: string | Uint8Array): Promise<void> {
    if (!this.accepting) return Promise.reject(new Error(`execution ${this.exec} already ended`));
    return this.enqueue(() => this.stream.push(chunk));
  }

  /** Pushes every chunk of an async iterable (e.g. `execution.read()`), in order. */
  async consume(chunks: AsyncIterable<string | Uint8Array>): Promise<void> {
    const run = (async () => {
      for await (const c of chunks) {
        if (this.dropping) break; // output that arrives after the end is not this execution's
        await this.enqueue(() => this.stream.push(c));
      }
    })();
    this.consuming = run;
    await run;
  }

  /**
   * Writes the rest of the output and the footer. Safe to call more than once (and concurrently):
   * every call gets the same summary, so a late end event never throws or rewrites the footer.
   */
  end(result: ExecutionResult = {}): Promise<ExecutionSummary> {
    this.ending ??= this.finish(result);
    return this.ending;
  }

  /** True once `end` was called (by an end event, the grace timer, or `close`). */
  get ended(): boolean {
    return this.ending !== undefined;
  }

  /** @internal The next execution began: close this one if its own end does not come within `ms`. */
  superseded(ms: number): void {
    if (this.ending || this.graceTimer) return;
    this.graceTimer = setTimeout(
      () =>
        void this.end({
          reason: `VS Code reported no end for this command within ${Math.round(ms / 1000)} s of the next one`,
        }).catch(() => undefined),
      ms,
    );
  }

  private async finish(result: ExecutionResult): Promise<ExecutionSummary> {
    clearTimeout(this.graceTimer);
    this.accepting = false;
    try {
      // The end event can come before `read()` has delivered its last chunks: give the stream a
      // moment to drain, then stop taking chunks.
      if (this.consuming) await Promise.race([this.consuming.catch(() => undefined), sleep(this.options.drainMs)]);
      this.dropping = true;
      clearInterval(this.timer);
      let stats!: SanitizeStats;
      await this.enqueue(async () => {
        stats = await this.stream.end();
      });
      const endedAt = Math.max(result.endedAt ?? this.writer.clock.now(), this.startedAt);
      const durationMs = endedAt - this.startedAt;
      const exitCode = result.exitCode ?? null;
      const record: IndexEnd = {
        v: 2,
        event: 'end',
        seq: this.seq,
        exec: this.exec,
        exitCode,
        durationMs,
        endedAt: new Date(endedAt).toISOString(),
        ...(result.reason ? { reason: result.reason } : {}),
        redactions: stats.redactions,
      };
      const screens = stats.fullScreenSessions;
      if (screens > 0) await this.enqueue(() => this.writer.appendRaw(noteLine(fullScreenNote(screens))));
      await this.enqueue(() => this.writer.writeBlockEnd(footerLine({ exitCode, durationMs, ...result }), record));
      await this.writer.settle();
      await this.writer.executionEnded(this);
      return {
        exec: this.exec,
        seq: this.seq,
        exitCode: result.exitCode,
        durationMs,
        ...(result.reason ? { reason: result.reason } : {}),
        stats,
      };
    } finally {
      clearInterval(this.timer);
      this.release();
    }
  }

  // Pushes, timer flushes and the end run one at a time, in order, after the header.
  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** Says that a full-screen program drew here: its screens are gone from the terminal, and from the log. */
function fullScreenNote(sessions: number): string {
  const times = sessions === 1 ? '' : ` (${sessions} times)`;
  return `a full-screen program (a pager, an editor, a monitor) drew here${times}; its screens are not kept, as the terminal keeps none of them once it exits`;
}
