// Every terminal as a file: `terminals/<terminal>-<id>.log`, one block per command execution.
//
// Format (plain text a person can read; marker lines start with U+241E "␞" and carry JSON):
//   ␞ {"event":"begin","exec":"3","command":"npm test","cwd":"/w","startedAt":"2026-...Z"}
//   $ npm test
//   ...the output as a person saw it (rendered with @xterm/headless, secrets redacted)...
//   ␞ {"event":"end","exec":"3","exitCode":0,"durationMs":1234,"endedAt":"2026-...Z"}
// An output line that itself starts with "␞" is stored with a leading space, so markers cannot be forged.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import type { ContextStore } from './context-store';
import type { SanitizingStream, SanitizeStats } from './sanitize/pipeline';
import { sanitizingStream, type RedactedText, type StoreAppendFile } from './store-writer';
import { redactSecrets, type RedactionCounts } from './sanitize/secrets';

export const MARKER = '\u241E';

export interface TerminalLogOptions {
  terminalName: string;
  /** Unique per terminal and window (two windows may both have a terminal "1"): e.g. `<window>-<n>`. */
  terminalId: string | number;
  clock?: Clock;
  /** Emulated terminal size (use the real one when known). */
  cols?: number;
  rows?: number;
  /** Output is written at least this often while a command runs (ms). Default 500. */
  flushIntervalMs?: number;
  /** A log larger than this is renamed to `<name>-<id>.<time>-<tag>-<n>.log` after a command ends. Default 32 MB. */
  maxLogBytes?: number;
}

export interface ExecutionStart {
  command: string;
  cwd?: string;
  /** Epoch ms; defaults to the clock. */
  startedAt?: number;
}

export interface ExecutionSummary {
  exec: string;
  exitCode: number | undefined;
  durationMs: number;
  stats: SanitizeStats;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

function escapeMarkers(text: string): string {
  return text.includes(MARKER) ? text.replace(/^\u241E/gm, ` ${MARKER}`) : text;
}

/** One command execution being captured: push chunks as they arrive, then `end`. */
export class ExecutionCapture {
  private readonly stream: SanitizingStream;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private ended = false;
  private ending = false;
  private consuming: Promise<void> | undefined;
  private readonly drainMs: number;

  /** @internal created by `TerminalLogWriter.begin`. */
  constructor(
    private readonly writer: TerminalLogWriter,
    readonly exec: string,
    private readonly startedAt: number,
    options: { cols?: number; rows?: number; flushIntervalMs: number; drainMs?: number },
  ) {
    this.drainMs = options.drainMs ?? 1000;
    this.stream = sanitizingStream(
      (text) => writer.appendRaw(text),
      { ansi: 'render', terminal: options },
      escapeMarkers,
    );
    this.timer = setInterval(() => void this.enqueue(() => this.stream.flush()), options.flushIntervalMs);
    this.timer.unref();
  }

  /** Adds a raw output chunk (as `execution.read()` yields it). Chunks may cut escape sequences and code points. */
  push(chunk: string | Uint8Array): Promise<void> {
    if (this.ended) return Promise.reject(new Error(`execution ${this.exec} already ended`));
    return this.enqueue(() => this.stream.push(chunk));
  }

  /** Pushes every chunk of an async iterable (e.g. `execution.read()`), in order. */
  async consume(chunks: AsyncIterable<string | Uint8Array>): Promise<void> {
    const run = (async () => {
      for await (const c of chunks) {
        if (this.ending) break; // output that arrives after the end event is not this execution's
        await this.enqueue(() => this.stream.push(c));
      }
    })();
    this.consuming = run;
    await run;
  }

  /** Writes the rest of the output and the footer. `exitCode` undefined means unknown (e.g. interrupted). */
  async end(result: { exitCode?: number; endedAt?: number } = {}): Promise<ExecutionSummary> {
    if (this.ended) throw new Error(`execution ${this.exec} already ended`);
    this.ended = true;
    // The end event can come before `read()` has delivered its last chunks: give the stream a
    // moment to drain (`drainMs`), then stop taking chunks.
    if (this.consuming) await Promise.race([this.consuming.catch(() => undefined), sleep(this.drainMs)]);
    this.ending = true;
    clearInterval(this.timer);
    let stats!: SanitizeStats;
    await this.enqueue(async () => {
      stats = await this.stream.end();
    });
    const endedAt = result.endedAt ?? this.writer.clock.now();
    const durationMs = Math.max(0, endedAt - this.startedAt);
    const footer = {
      event: 'end',
      exec: this.exec,
      exitCode: result.exitCode ?? null,
      durationMs,
      endedAt: new Date(endedAt).toISOString(),
      redactions: stats.redactions,
    };
    await this.writer.appendRaw(`${MARKER} ${JSON.stringify(footer)}\n`);
    await this.writer.settle();
    await this.writer.executionEnded(this);
    return { exec: this.exec, exitCode: result.exitCode, durationMs, stats };
  }

  // Pushes, timer flushes and the end run one at a time, in order.
  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * Appends one terminal's command executions to its log. The VS Code glue creates one per terminal
 * (name + an id unique in the window) and calls `begin` on `onDidStartTerminalShellExecution`, feeds
 * `execution.read()` into the capture, and calls `end` on `onDidEndTerminalShellExecution`.
 */
export class TerminalLogWriter {
  readonly clock: Clock;
  private file: StoreAppendFile | undefined;
  private active: ExecutionCapture | undefined;
  private count = 0;
  private readonly tag = randomBytes(3).toString('hex');

  private constructor(
    private readonly store: ContextStore,
    /** Absolute path of the log. */
    readonly path: string,
    private readonly options: TerminalLogOptions,
  ) {
    this.clock = options.clock ?? systemClock;
  }

  static async open(store: ContextStore, options: TerminalLogOptions): Promise<TerminalLogWriter> {
    const w = new TerminalLogWriter(store, store.terminalLogPath(options.terminalName, options.terminalId), options);
    w.file = await store.writer.openAppend(w.path);
    return w;
  }

  /** Workspace-relative path of the log (for links and the agent). */
  get display(): string {
    return this.store.displayPath(this.path);
  }

  /**
   * Starts capturing one command. A capture still open on this terminal is ended first with an
   * unknown exit code (its end event never came).
   */
  async begin(start: ExecutionStart): Promise<ExecutionCapture> {
    if (this.active) await this.active.end({});
    const startedAt = start.startedAt ?? this.clock.now();
    // Unique across windows writing the same log: time, a per-writer random tag, a counter.
    const exec = `${startedAt.toString(36)}-${this.tag}-${++this.count}`;
    // The command line and cwd are user text: redact them too (a password typed into a command line).
    const [cmd, cwd] = await Promise.all([redactSecrets(start.command), redactSecrets(start.cwd ?? '')]);
    const redactions: RedactionCounts = { ...cmd.counts, ...cwd.counts };
    const header = {
      event: 'begin',
      exec,
      command: cmd.text,
      cwd: start.cwd === undefined ? null : cwd.text,
      startedAt: new Date(startedAt).toISOString(),
      redactions,
    };
    await this.appendRaw(`${MARKER} ${JSON.stringify(header)}\n$ ${cmd.text.replace(/\n/g, '\n> ')}\n`);
    const capture = new ExecutionCapture(this, exec, startedAt, {
      cols: this.options.cols,
      rows: this.options.rows,
      flushIntervalMs: this.options.flushIntervalMs ?? 500,
    });
    this.active = capture;
    return capture;
  }

  private writing: Promise<void> = Promise.resolve();
  private writeError: unknown;
  private inFlight = 0;

  /**
   * @internal Appends in order without waiting for the disk, so sanitizing the next batch overlaps
   * the write of this one; waits only when more than 4 MB are in flight (backpressure).
   */
  async appendRaw(text: string | RedactedText): Promise<void> {
    const file = this.file;
    if (!file) throw new Error(`terminal log ${this.path} is closed`);
    if (this.writeError) throw this.writeError;
    const size = typeof text === 'string' ? text.length : text.value.length;
    this.inFlight += size;
    this.writing = this.writing.then(async () => {
      try {
        await file.append(text);
      } catch (e) {
        this.writeError ??= e;
      } finally {
        this.inFlight -= size;
      }
    });
    if (this.inFlight > 4 * 1024 * 1024) await this.writing;
  }

  /** @internal Waits until everything appended so far is on disk; throws the first write error. */
  async settle(): Promise<void> {
    await this.writing;
    if (this.writeError) throw this.writeError;
  }

  /** @internal */
  async executionEnded(capture: ExecutionCapture): Promise<void> {
    if (this.active === capture) this.active = undefined;
    if (!this.file || (await this.file.size()) <= (this.options.maxLogBytes ?? 32 * 1024 * 1024)) return;
    // Rotate: the full log keeps its content under a dated name; a fresh log continues.
    await this.file.close();
    await this.store.writer.rename(
      this.path,
      this.path.replace(/\.log$/, `.${this.clock.now().toString(36)}-${this.tag}-${this.count}.log`),
    );
    this.file = await this.store.writer.openAppend(this.path);
    await this.store.enforceCaps('terminals');
  }

  /** Ends an open capture (exit code unknown) and closes the log. */
  async close(): Promise<void> {
    if (this.active) await this.active.end({});
    await this.writing;
    await this.file?.close();
    this.file = undefined;
  }
}
