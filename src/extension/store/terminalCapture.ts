// Every integrated terminal is appended to its log in the store as far as VS Code lets an extension
// see it: commands with shell integration (header, output as a person saw it, exit code), tasks
// (command and exit code only: VS Code gives extensions no task output), commands already running
// when capture began (command and exit code only), and a note in the log for whatever was missed.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import { TerminalLogWriter, type ExecutionCapture } from '../../core/store/terminal-log';
import type { Logger } from '../../core/ports';
import type { UnicodeVersion } from '../../core/store/sanitize/unicode-v11';
import { TERMINAL_SECTION } from '../settings';
import { logStamp, notes, taskCommandLine, terminalLabel } from './terminalNotes';

/** What the capture knows about one terminal. */
import type { TerminalState } from '../../core/agent/tools/store-answers';
export type { TerminalState };

interface Tracked {
  writer?: Promise<TerminalLogWriter>;
}

/** The glue forwards the window's terminal and task events here (see extension.ts). */
export class TerminalCapture implements vscode.Disposable {
  private readonly terminals = new Map<vscode.Terminal, Tracked>();
  private readonly captures = new Map<vscode.TerminalShellExecution, Promise<ExecutionCapture | undefined>>();
  private readonly tasks = new Map<vscode.TaskExecution, Promise<ExecutionCapture | undefined>>();
  private store: Promise<ContextStore> | undefined;
  /** Part of every log name: two windows never share a log, even for terminals of the same name. */
  private readonly window = randomBytes(2).toString('hex');

  constructor(
    /** The window's store (opened once, through the extension's StoreAccess). */
    private readonly openStore: () => Promise<ContextStore>,
    private readonly enabled: () => boolean,
    private readonly logger: Logger,
  ) {}

  /**
   * Terminals (and tasks) that were open before capture began, e.g. at activation: each gets its log
   * now, with a note saying what VS Code cannot give back, so nothing is silently missing.
   */
  adopt(terminals: readonly vscode.Terminal[], running: readonly vscode.TaskExecution[] = []): void {
    if (!this.enabled()) return;
    const taskNames = new Set(running.map((t) => t.task.name));
    for (const terminal of terminals) {
      if (this.terminals.has(terminal) || terminal.exitStatus) continue;
      this.terminals.set(terminal, {});
      const isTask = isTaskTerminal(terminal, taskNames);
      void this.writerFor(terminal)
        .then((w) => w.note(notes.preexisting(new Date(), isTask, terminal.shellIntegration !== undefined)))
        .catch((e: unknown) => this.fail(terminal, e));
    }
  }

  /** The log of a terminal, once it has one. */
  async logPath(terminal: vscode.Terminal): Promise<string | undefined> {
    const w = this.terminals.get(terminal)?.writer;
    return w ? (await w.catch(() => undefined))?.path : undefined;
  }

  /** Every open terminal with its state and log (when it has one). */
  async list(): Promise<{ terminal: vscode.Terminal; state: TerminalState; log?: string }[]> {
    return Promise.all(
      vscode.window.terminals.map(async (terminal) => {
        const log = await this.logPath(terminal);
        const state: TerminalState = !this.enabled()
          ? 'off'
          : isTaskTerminal(terminal, new Set(vscode.tasks.taskExecutions.map((t) => t.task.name)))
            ? 'task'
            : terminal.shellIntegration
              ? 'captured'
              : 'waiting-for-shell-integration';
        return { terminal, state, ...(log ? { log } : {}) };
      }),
    );
  }

  private contextStore(): Promise<ContextStore> {
    this.store ??= this.openStore();
    return this.store;
  }

  private writerFor(terminal: vscode.Terminal): Promise<TerminalLogWriter> {
    let t = this.terminals.get(terminal);
    if (!t) this.terminals.set(terminal, (t = {}));
    t.writer ??= this.contextStore().then((store) =>
      TerminalLogWriter.open(store, {
        terminalName: terminalLabel(terminal),
        terminalId: `${logStamp(new Date())}-${this.window}${randomBytes(1).toString('hex')}`,
      }),
    );
    return t.writer;
  }

  private fail(terminal: vscode.Terminal, err: unknown): undefined {
    this.logger.error(
      `Terminal capture failed for "${terminalLabel(terminal)}": ${err instanceof Error ? err.message : String(err)}`,
    );
    return undefined;
  }

  started(e: vscode.TerminalShellExecutionStartEvent): void {
    if (!this.enabled()) return;
    // read() only yields what is written after it is first called: call it now, consume it later.
    const stream = e.execution.read();
    const { commandLine } = e.execution;
    const capture = (async () => {
      try {
        const writer = await this.writerFor(e.terminal);
        const c = await writer.begin({
          command: commandLine.value,
          ...(e.execution.cwd ? { cwd: e.execution.cwd.fsPath } : {}),
          notes:
            commandLine.confidence === vscode.TerminalShellExecutionCommandLineConfidence.Low ? [notes.guessed] : [],
          unicodeVersion: terminalUnicodeVersion(),
        });
        void c.consume(stream).catch((err: unknown) => this.logger.warn(`Terminal capture: ${String(err)}`));
        return c;
      } catch (err) {
        return this.fail(e.terminal, err);
      }
    })();
    this.captures.set(e.execution, capture);
  }

  async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const pending = this.captures.get(e.execution);
    this.captures.delete(e.execution);
    try {
      if (pending) {
        await (await pending)?.end(e.exitCode === undefined ? { reason: notes.noExitCode } : { exitCode: e.exitCode });
        return;
      }
      // It was already running when capture began (or capture was off then): keep what is known.
      if (!this.enabled()) return;
      const writer = await this.writerFor(e.terminal);
      await writer.record({
        command: e.execution.commandLine.value,
        ...(e.execution.cwd ? { cwd: e.execution.cwd.fsPath } : {}),
        ...(e.exitCode === undefined ? {} : { exitCode: e.exitCode }),
        notes: [notes.unwatched],
      });
    } catch (err) {
      this.logger.warn(`Terminal capture end: ${String(err)}`);
    }
  }

  /** A task's process started: its terminal's log gets the command; the output is beyond VS Code's API. */
  taskStarted(e: vscode.TaskProcessStartEvent): void {
    if (!this.enabled()) return;
    const terminal = taskTerminal(e.execution.task.name);
    if (!terminal) {
      this.logger.info(`Task "${e.execution.task.name}" started; no terminal of that name to log it in.`);
      return;
    }
    const capture = (async () => {
      try {
        const writer = await this.writerFor(terminal);
        return await writer.begin({
          command: taskCommandLine(e.execution.task),
          source: 'task',
          notes: [notes.task(e.execution.task.name)],
        });
      } catch (err) {
        return this.fail(terminal, err);
      }
    })();
    this.tasks.set(e.execution, capture);
  }

  async taskEnded(e: vscode.TaskProcessEndEvent): Promise<void> {
    const pending = this.tasks.get(e.execution);
    this.tasks.delete(e.execution);
    try {
      if (pending) {
        await (await pending)?.end(e.exitCode === undefined ? { reason: notes.noExitCode } : { exitCode: e.exitCode });
        return;
      }
      // The task was already running when capture began: its command and exit code are still known.
      const terminal = taskTerminal(e.execution.task.name);
      if (!terminal || !this.enabled()) return;
      await (
        await this.writerFor(terminal)
      ).record({
        command: taskCommandLine(e.execution.task),
        ...(e.exitCode === undefined ? {} : { exitCode: e.exitCode }),
        source: 'task',
        notes: [notes.task(e.execution.task.name), notes.unwatched],
      });
    } catch (err) {
      this.logger.warn(`Terminal capture (task end): ${String(err)}`);
    }
  }

  async closed(terminal: vscode.Terminal): Promise<void> {
    const t = this.terminals.get(terminal);
    this.terminals.delete(terminal);
    if (t?.writer) await (await t.writer.catch(() => undefined))?.close().catch(() => undefined);
  }

  dispose(): void {
    for (const t of this.terminals.values())
      void t.writer?.then((w) => w.close('Context Desk stopped before this command ended')).catch(() => undefined);
    this.terminals.clear();
  }
}

/**
 * The character widths VS Code's terminal uses (read at each command: the setting applies to open
 * terminals at once). Anything but "6" is the default, "11".
 */
function terminalUnicodeVersion(): UnicodeVersion {
  return vscode.workspace.getConfiguration(TERMINAL_SECTION).get<string>('unicodeVersion') === '6' ? '6' : '11';
}

/** Task terminals run `<shell> -c <command>` (creation options) or carry a running task's name. */
function isTaskTerminal(terminal: vscode.Terminal, runningTaskNames: ReadonlySet<string>): boolean {
  const options = terminal.creationOptions as vscode.TerminalOptions;
  const args = Array.isArray(options.shellArgs) ? options.shellArgs : [];
  return runningTaskNames.has(terminalLabel(terminal)) || (args.length === 2 && args[0] === '-c');
}

/** The newest open terminal named after the task (VS Code names task terminals after their task). */
function taskTerminal(name: string): vscode.Terminal | undefined {
  return vscode.window.terminals.filter((t) => terminalLabel(t) === name && !t.exitStatus).at(-1);
}
