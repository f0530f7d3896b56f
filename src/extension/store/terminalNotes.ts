// What the terminal logs say about what could not be captured, and the small naming helpers of the
// capture. The notes name VS Code's limits plainly: a person reading a log should know why a part is missing.
import * as vscode from 'vscode';
import { localTime } from '../../core/numbers';

const pad = (n: number): string => String(n).padStart(2, '0');

/** `20261123-100412`: when the log began, in its name (sorts by time, readable, not a session id). */
export function logStamp(d: Date): string {
  return (
    `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-` +
    `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`
  );
}

/** A terminal's name; task terminals have none at first, their creation options carry the task's. */
export function terminalLabel(terminal: vscode.Terminal): string {
  return terminal.name || (terminal.creationOptions as vscode.TerminalOptions).name || 'terminal';
}

/** The command a task runs, as a person would type it. */
export function taskCommandLine(task: vscode.Task): string {
  const e = task.execution;
  const arg = (a: string | vscode.ShellQuotedString): string => (typeof a === 'string' ? a : a.value);
  if (e instanceof vscode.ShellExecution)
    return (
      e.commandLine ??
      [e.command, ...(e.args ?? [])]
        .filter((a) => a !== undefined)
        .map(arg)
        .join(' ')
    );
  if (e instanceof vscode.ProcessExecution) return [e.process, ...e.args].join(' ');
  return `task "${task.name}"`;
}

export const notes = {
  preexisting: (since: Date, isTask: boolean, hasIntegration: boolean): string =>
    [
      `This terminal was open before Context Desk started capturing it (${localTime(since)}).`,
      'VS Code gives extensions no way to read what a terminal showed earlier, so earlier commands and their output are not in this log.',
      isTask
        ? 'It is a task terminal: VS Code reports a task start and exit code to extensions, not its output.'
        : hasIntegration
          ? 'Commands from now on are captured.'
          : 'Shell integration is not active in it (yet); commands are captured once it is (bash, zsh, fish or PowerShell with terminal.integrated.shellIntegration.enabled).',
    ].join(' '),
  task: (name: string): string =>
    `Task "${name}": VS Code reports a task's start and exit code to extensions but not its output, so the output is not in this log (see the terminal itself, or run the command in a terminal with shell integration to capture it).`,
  unwatched:
    'This command was already running when Context Desk started capturing this terminal: its command line and exit code are known, its output is not.',
  guessed:
    'VS Code could only guess this command line: the shell integration in this terminal does not report commands.',
  noExitCode: 'VS Code reported no exit code',
};
