// Every terminal as a file: `terminals/<terminal>-<id>.log` for people and grep, one block per
// command execution (format in terminal-log-format.ts), plus `<…>.index.jsonl` with the exact record.
//
// Lifecycle: executions of one terminal are written one block after another, in the order they
// began. A `begin` never ends or loses the previous execution: the new block waits until the previous
// one has its footer. An execution whose end event never comes is closed with an unknown exit code
// `endGraceMs` after the next one began (VS Code sometimes reports no end for pasted lines).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import type { ContextStore } from './context-store';
import { readJsonl } from './durable';
import type { SanitizeStats } from './sanitize/pipeline';
import type { UnicodeVersion } from './sanitize/unicode-v11';
import type { RedactedText, StoreAppendFile } from './store-writer';
import { ExecutionCapture } from './terminal-execution';
import { PRINTED_SECRET, secretPrinter } from './sanitize/printed-secrets';
import { redactSecrets, type RedactionCounts } from './sanitize/secrets';
import {
  footerLine,
  headerLines,
  noteLine,
  terminalIndexPath,
  type ExecutionSource,
  type IndexBegin,
  type IndexEnd,
  type IndexRecord,
} from './terminal-log-format';

export { MARKER } from './terminal-log-format';
export { ExecutionCapture } from './terminal-execution';

export interface TerminalLogOptions {
  terminalName: string;
  /** Unique per terminal and window (two windows may both have a terminal "bash"). */
  terminalId: string | number;
  clock?: Clock;
  /** Emulated terminal size (use the real one when known). */
  cols?: number;
  rows?: number;
  /** Output is written at least this often while a command runs (ms). Default 500. */
  flushIntervalMs?: number;
  /** A log larger than this is renamed to `<name>-<id>.<time>-<tag>-<n>.log` after a command ends. Default 32 MB. */
  maxLogBytes?: number;
  /** An execution still open when the next one begins is closed this long after (ms), if its end never comes. Default 5000. */
  endGraceMs?: number;
  /** `end` waits at most this long for `read()` to deliver its last chunks (ms). Default 1000. */
  drainMs?: number;
}

export interface ExecutionStart {
  command: string;
  cwd?: string;
  /** Epoch ms; defaults to the clock. */
  startedAt?: number;
  source?: ExecutionSource;
  /** Lines written under the header: what could not be captured, and why. */
  notes?: string[];
  /** The character widths of the terminal (its `terminal.integrated.unicodeVersion`); default "11". */
  unicodeVersion?: UnicodeVersion;
}

export interface ExecutionResult {
  /** Undefined: unknown (VS Code did not report one). */
  exitCode?: number;
  endedAt?: number;
  /** Why the exit code is unknown or the end was forced; shown in the footer. */
  reason?: string;
}

export interface ExecutionSummary {
  exec: string;
  seq: number;
  exitCode: number | undefined;
  durationMs: number;
  reason?: string;
  stats: SanitizeStats;
}

/** An execution that was over before it could be captured (only its end was seen). */
export interface FinishedExecution {
  command: string;
  cwd?: string;
  exitCode?: number;
  endedAt?: number;
  source?: ExecutionSource;
  notes: string[];
}

async function redactAll(texts: string[]): Promise<{ texts: string[]; counts: RedactionCounts }> {
  const results = await Promise.all(texts.map((t) => redactSecrets(t)));
  const counts: RedactionCounts = {};
  for (const r of results) for (const [k, n] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + n;
  return { texts: results.map((r) => r.text), counts };
}

/**
 * Appends one terminal's command executions to its log. The VS Code glue creates one per terminal
 * and calls `begin` on `onDidStartTerminalShellExecution`, feeds `execution.read()` into the capture,
 * and calls `end` on `onDidEndTerminalShellExecution`, in whatever order those events arrive.
 */
export class TerminalLogWriter {
  readonly clock: Clock;
  private log: StoreAppendFile | undefined;
  private index: StoreAppendFile | undefined;
  private open: ExecutionCapture[] = [];
  /** Settles when the last block queued so far is complete: the next one waits for it. */
  private last: Promise<void> = Promise.resolve();
  private seq = 0;
  private rotations = 0;
  private closing = false;
  private closed: Promise<void> | undefined;
  private readonly tag = randomBytes(3).toString('hex');

  private constructor(
    private readonly store: ContextStore,
    /** Absolute path of the log. */
    readonly path: string,
    private readonly options: TerminalLogOptions,
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /** Absolute path of the index beside the log. */
  get indexPath(): string {
    return terminalIndexPath(this.path);
  }

  static async open(store: ContextStore, options: TerminalLogOptions): Promise<TerminalLogWriter> {
    const w = new TerminalLogWriter(store, store.terminalLogPath(options.terminalName, options.terminalId), options);
    // A log continued after a crash or a reload goes on numbering where its index stopped.
    const { records } = await readJsonl<Partial<IndexRecord>>(w.indexPath);
    w.seq = records.reduce((max, r) => (typeof r.seq === 'number' && r.seq > max ? r.seq : max), 0);
    // The writer's handles refuse links and register the files as in use (rotation leaves them alone).
    w.log = await store.writer.openAppend(w.path);
    w.index = await store.writer.openAppend(w.indexPath);
    return w;
  }

  /** Workspace-relative path of the log (for links and the agent). */
  get display(): string {
    return this.store.displayPath(this.path);
  }

  /** Starts capturing one command. An execution still open stays open until its own end (or its grace runs out). */
  async begin(start: ExecutionStart): Promise<ExecutionCapture> {
    if (this.closing || !this.log) throw new Error(`terminal log ${this.path} is closed`);
    const startedAt = start.startedAt ?? this.clock.now();
    const seq = ++this.seq;
    // Unique across windows writing the same log: time, a per-writer random tag, the number.
    const exec = `${startedAt.toString(36)}-${this.tag}-${seq}`;
    for (const c of this.open) c.superseded(this.options.endGraceMs ?? 5000);
    const turn = this.last;
    const printer = secretPrinter(start.command);
    const startNotes = [
      ...(start.notes ?? []),
      ...(printer ? [`the output is not kept: ${printer} prints a secret (each line shows ${PRINTED_SECRET})`] : []),
    ];
    const capture = new ExecutionCapture(
      this,
      exec,
      seq,
      startedAt,
      turn,
      async () => {
        // The command line and cwd are user text: redact them too (a password typed into a command line).
        const r = await redactAll([start.command, start.cwd ?? '', ...startNotes]);
        const [command = '', cwd = '', ...notes] = r.texts;
        const record: IndexBegin = {
          v: 2,
          event: 'begin',
          seq,
          exec,
          command,
          cwd: start.cwd === undefined ? null : cwd,
          startedAt: new Date(startedAt).toISOString(),
          source: start.source ?? 'shell',
          redactions: r.counts,
        };
        const text = headerLines({ seq, at: startedAt, cwd: record.cwd, command }) + notes.map(noteLine).join('');
        await this.writeBlockStart(text, record);
      },
      {
        cols: this.options.cols,
        rows: this.options.rows,
        ...(start.unicodeVersion ? { unicodeVersion: start.unicodeVersion } : {}),
        flushIntervalMs: this.options.flushIntervalMs ?? 500,
        drainMs: this.options.drainMs ?? 1000,
        wholeOutputSecret: printer !== undefined,
      },
    );
    this.open.push(capture);
    this.last = capture.done;
    return capture;
  }

  /** Records an execution that was over before it could be captured: header, notes and footer, no output. */
  async record(e: FinishedExecution): Promise<void> {
    const at = e.endedAt ?? this.clock.now();
    const seq = ++this.seq;
    const exec = `${at.toString(36)}-${this.tag}-${seq}`;
    await this.inTurn(async () => {
      const r = await redactAll([e.command, e.cwd ?? '', ...e.notes]);
      const [command = '', cwd = '', ...notes] = r.texts;
      const cwdOrNull = e.cwd === undefined ? null : cwd;
      await this.writeBlockStart(headerLines({ seq, at, cwd: cwdOrNull, command }) + notes.map(noteLine).join(''), {
        v: 2,
        event: 'begin',
        seq,
        exec,
        command,
        cwd: cwdOrNull,
        startedAt: null,
        source: e.source ?? 'unwatched',
        redactions: r.counts,
      });
      const exitCode = e.exitCode ?? null;
      await this.writeBlockEnd(footerLine({ exitCode, durationMs: null }), {
        v: 2,
        event: 'end',
        seq,
        exec,
        exitCode,
        durationMs: null,
        endedAt: new Date(at).toISOString(),
        redactions: {},
      });
      await this.settle();
    });
  }

  /** Appends a note between blocks (e.g. why earlier output of this terminal is not in the log). */
  async note(text: string): Promise<void> {
    await this.inTurn(async () => {
      await this.appendRaw(noteLine((await redactSecrets(text)).text));
      await this.settle();
    });
  }

  /** Runs `write` after every block queued before it, and holds the next ones until it is done. */
  private async inTurn(write: () => Promise<void>): Promise<void> {
    if (this.closing || !this.log) throw new Error(`terminal log ${this.path} is closed`);
    const turn = this.last;
    let release!: () => void;
    this.last = new Promise<void>((resolve) => (release = resolve));
    try {
      await turn;
      await write();
    } finally {
      release();
    }
  }

  /** @internal */
  async writeBlockStart(text: string, record: IndexBegin): Promise<void> {
    await this.appendRaw(text);
    await this.appendIndex(record);
  }

  /** @internal */
  async writeBlockEnd(text: string, record: IndexEnd): Promise<void> {
    await this.appendRaw(text);
    await this.appendIndex(record);
  }

  private async appendIndex(record: IndexRecord): Promise<void> {
    if (!this.index) throw new Error(`terminal log ${this.path} is closed`);
    await this.index.append(`${JSON.stringify(record)}\n`);
  }

  private writing: Promise<void> = Promise.resolve();
  private writeError: unknown;
  private inFlight = 0;

  /**
   * @internal Appends in order without waiting for the disk, so sanitizing the next batch overlaps
   * the write of this one; waits only when more than 4 MB are in flight (backpressure).
   */
  async appendRaw(text: string | RedactedText): Promise<void> {
    const file = this.log;
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

  /** @internal Called before the next block may start: rotation happens between blocks, never inside one. */
  async executionEnded(capture: ExecutionCapture): Promise<void> {
    this.open = this.open.filter((c) => c !== capture);
    if (!this.log || (await this.log.size()) <= (this.options.maxLogBytes ?? 32 * 1024 * 1024)) return;
    // Rotate: the full log and its index keep their content under a dated name; fresh ones continue.
    await this.log.close();
    await this.index?.close();
    const rotated = this.path.replace(
      /\.log$/,
      `.${this.clock.now().toString(36)}-${this.tag}-${++this.rotations}.log`,
    );
    await this.store.writer.rename(this.path, rotated);
    await this.store.writer.rename(this.indexPath, terminalIndexPath(rotated)).catch(() => undefined);
    this.log = await this.store.writer.openAppend(this.path);
    this.index = await this.store.writer.openAppend(this.indexPath);
    await this.store.enforceCaps('terminals');
  }

  /** Ends every open execution (exit code unknown unless its end came) and closes the log. */
  close(reason = 'the terminal was closed before this command ended'): Promise<void> {
    this.closed ??= this.closeNow(reason);
    return this.closed;
  }

  private async closeNow(reason: string): Promise<void> {
    for (const c of this.open) if (!c.ended) void c.end({ reason }).catch(() => undefined);
    // Blocks queued before the close finish first; nothing new may start.
    const last = this.last;
    this.closing = true;
    await last;
    await this.writing;
    await this.log?.close();
    await this.index?.close();
    this.log = undefined;
    this.index = undefined;
  }
}
