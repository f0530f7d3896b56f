// The agent's commands run in a visible terminal through shell integration, so they land in the
// terminal logs like the user's own. Output streams into the store as it comes (memory holds only
// the preview); Stop or the timeout sends Ctrl-C, and a command still running after a grace period
// has its terminal closed, which ends every process in it: the run never waits on a command that
// ignores Ctrl-C. The terminal is reused, so each command first changes to its own folder (inFolder.ts):
// it runs where its approval said, wherever an earlier command or the user left the shell.
import * as vscode from 'vscode';
import type { ToolContext, ToolOutput } from '../../core/agent/tool-registry';
import { inFolder, shellSyntax } from '../../core/agent/tools/in-folder';

export const AGENT_TERMINAL_NAME = 'Context Desk Agent';
/** After Ctrl-C a command has this long to end before its terminal is closed. */
export const KILL_GRACE_MS = 3000;
/** Without a store (tests, store-less hosts) only the end of the output is kept in memory. */
const FALLBACK_TAIL_CHARS = 256 * 1024;

export interface CommandRun {
  command: string;
  /** The absolute folder the command runs in (what its approval named). */
  cwd: string;
  timeoutMs: number;
  killGraceMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function agentTerminal(cwd: string): Promise<vscode.Terminal> {
  const existing = vscode.window.terminals.find((t) => t.name === AGENT_TERMINAL_NAME && t.exitStatus === undefined);
  const terminal = existing ?? vscode.window.createTerminal({ name: AGENT_TERMINAL_NAME, cwd });
  terminal.show(true);
  if (terminal.shellIntegration) return terminal;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve();
    }, 10_000);
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  });
  return terminal;
}

/** Yields from `source` until it ends or `stop` settles, whichever is first (a read() may never end). */
async function* until<T>(source: AsyncIterable<T>, stop: Promise<void>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  const stopped = stop.then((): IteratorResult<T> => ({ done: true, value: undefined }));
  try {
    for (;;) {
      const r = await Promise.race([it.next(), stopped]);
      if (r.done) return;
      yield r.value;
    }
  } finally {
    void it.return?.()?.catch(() => undefined);
  }
}

/** The fallback when no store is given: the last FALLBACK_TAIL_CHARS characters. */
async function keepTail(chunks: AsyncIterable<string | Uint8Array>): Promise<{ text: string }> {
  const decoder = new TextDecoder();
  let text = '';
  let dropped = 0;
  for await (const c of chunks) {
    text += typeof c === 'string' ? c : decoder.decode(c, { stream: true });
    if (text.length > 2 * FALLBACK_TAIL_CHARS) {
      dropped += text.length - FALLBACK_TAIL_CHARS;
      text = text.slice(-FALLBACK_TAIL_CHARS);
    }
  }
  return { text: dropped ? `[${dropped} earlier characters not kept]\n${text}` : text };
}

export async function runInTerminal(run: CommandRun, ctx: ToolContext): Promise<ToolOutput> {
  const terminal = await agentTerminal(run.cwd);
  const integration = terminal.shellIntegration;
  if (!integration) {
    return {
      ok: false,
      text: 'The agent terminal has no shell integration, so its output cannot be read. Enable terminal.integrated.shellIntegration.enabled and use bash, zsh, fish or PowerShell.',
    };
  }
  // The shell the terminal runs now (VS Code's guess), else the default one it was opened with.
  const syntax = shellSyntax(terminal.state.shell ?? vscode.env.shell);
  const execution = integration.executeCommand(inFolder(run.command, run.cwd, syntax));
  let exitCode: number | undefined;
  const subscriptions: vscode.Disposable[] = [];
  const finished = new Promise<'ended' | 'closed'>((resolve) => {
    subscriptions.push(
      vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution !== execution) return;
        exitCode = e.exitCode;
        resolve('ended');
      }),
      vscode.window.onDidCloseTerminal((t) => {
        if (t === terminal) resolve('closed');
      }),
    );
  });

  const grace = run.killGraceMs ?? KILL_GRACE_MS;
  let stopped: 'timeout' | 'aborted' | undefined;
  let killed = false;
  let killTimer: NodeJS.Timeout | undefined;
  const interrupt = (why: 'timeout' | 'aborted'): void => {
    if (stopped) return;
    stopped = why;
    terminal.sendText('\x03', false);
    killTimer = setTimeout(() => {
      killed = true;
      terminal.dispose(); // ends the shell and every process in it (SIGHUP), SIGINT-proof
    }, grace);
  };
  const timer = setTimeout(() => interrupt('timeout'), run.timeoutMs);
  const onAbort = (): void => interrupt('aborted');
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });

  let stop!: () => void;
  const stopReading = new Promise<void>((resolve) => (stop = resolve));
  const chunks = until(execution.read(), stopReading);
  const storing: Promise<{ text: string; storedAt?: string }> = ctx.storeOutput
    ? ctx.storeOutput(chunks)
    : keepTail(chunks);
  try {
    const how = await finished;
    // read() normally ends with the execution; its last chunks (still in flight when a killed
    // terminal closed) get a moment when it does not.
    await Promise.race([storing.catch(() => undefined), sleep(how === 'ended' ? 2000 : 1000)]);
    stop();
    const stored = await storing;
    const notes: string[] = [];
    const secs = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    const ignored = killed ? `; it did not stop within ${secs(grace)}, so its terminal was closed` : '';
    if (stopped === 'timeout') notes.push(`[stopped after ${secs(run.timeoutMs)}: Ctrl-C sent${ignored}]`);
    if (stopped === 'aborted') notes.push(`[stopped by the user: Ctrl-C sent${ignored}]`);
    if (!stopped && how === 'closed') notes.push('[the terminal was closed while the command ran]');
    notes.push(`[exit code: ${exitCode ?? 'unknown'}]`);
    return {
      ok: exitCode === 0 && !stopped,
      text: [stored.text.replace(/\n$/, ''), ...notes].filter(Boolean).join('\n'),
      ...(stored.storedAt ? { storedAt: stored.storedAt } : {}),
    };
  } finally {
    stop();
    clearTimeout(timer);
    clearTimeout(killTimer);
    ctx.signal.removeEventListener('abort', onAbort);
    for (const s of subscriptions) s.dispose();
  }
}
