// Every integrated terminal with shell integration is appended to its log in the store as it runs:
// a header per command (cwd, command line, start), the text a person saw, and a footer (exit, duration).
import * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import { TerminalLogWriter, type ExecutionCapture } from '../../core/store/terminal-log';
import type { Logger } from '../../core/ports';

interface Tracked {
  writer: Promise<TerminalLogWriter>;
}

/** The glue forwards the window's shell-execution events to `started`, `ended` and `closed`. */
export class TerminalCapture implements vscode.Disposable {
  private readonly terminals = new Map<vscode.Terminal, Tracked>();
  private readonly captures = new Map<
    vscode.TerminalShellExecution,
    Promise<{ capture: ExecutionCapture; consumed: Promise<void> } | undefined>
  >();
  private store: Promise<ContextStore> | undefined;
  private counter = 0;

  constructor(
    /** The window's store (opened once, through the extension's StoreAccess). */
    private readonly openStore: () => Promise<ContextStore>,
    private readonly enabled: () => boolean,
    private readonly logger: Logger,
  ) {}

  /** The log of a terminal, once it has run a command with shell integration. */
  async logPath(terminal: vscode.Terminal): Promise<string | undefined> {
    const t = this.terminals.get(terminal);
    return t ? (await t.writer).path : undefined;
  }

  /** Terminals and whether their commands are captured. */
  list(): { terminal: vscode.Terminal; captured: boolean }[] {
    return vscode.window.terminals.map((terminal) => ({ terminal, captured: this.terminals.has(terminal) }));
  }

  private contextStore(): Promise<ContextStore> {
    this.store ??= this.openStore();
    return this.store;
  }

  private writerFor(terminal: vscode.Terminal): Promise<TerminalLogWriter> {
    let t = this.terminals.get(terminal);
    if (!t) {
      const id = `${vscode.env.sessionId.slice(0, 8)}-${++this.counter}`;
      t = {
        writer: this.contextStore().then((store) =>
          TerminalLogWriter.open(store, { terminalName: terminal.name, terminalId: id }),
        ),
      };
      this.terminals.set(terminal, t);
    }
    return t.writer;
  }

  started(e: vscode.TerminalShellExecutionStartEvent): void {
    if (!this.enabled()) return;
    // read() only yields what is written after it is first called: call it now, consume it later.
    const stream = e.execution.read();
    const capture = (async () => {
      try {
        const writer = await this.writerFor(e.terminal);
        const c = await writer.begin({
          command: e.execution.commandLine.value,
          ...(e.execution.cwd ? { cwd: e.execution.cwd.fsPath } : {}),
        });
        const consumed = c
          .consume(stream)
          .catch((err: unknown) => this.logger.warn(`Terminal capture: ${String(err)}`));
        return { capture: c, consumed };
      } catch (err) {
        this.logger.error(
          `Terminal capture failed for "${e.terminal.name}": ${err instanceof Error ? err.message : String(err)}`,
        );
        return undefined;
      }
    })();
    this.captures.set(e.execution, capture);
  }

  async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const entry = await this.captures.get(e.execution);
    this.captures.delete(e.execution);
    if (!entry) return;
    try {
      // The output stream ends with the execution; give it a moment to drain before the footer.
      await Promise.race([entry.consumed, new Promise((r) => setTimeout(r, 2000))]);
      await entry.capture.end(e.exitCode === undefined ? {} : { exitCode: e.exitCode });
    } catch (err) {
      this.logger.warn(`Terminal capture end: ${String(err)}`);
    }
  }

  async closed(terminal: vscode.Terminal): Promise<void> {
    const t = this.terminals.get(terminal);
    this.terminals.delete(terminal);
    if (t) await (await t.writer).close().catch(() => undefined);
  }

  dispose(): void {
    for (const t of this.terminals.values()) void t.writer.then((w) => w.close()).catch(() => undefined);
    this.terminals.clear();
  }
}
