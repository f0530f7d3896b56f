// The VS Code side of the agent's edit_file and run_command tools (the core defines the tools and checks
// paths): commands run in a visible terminal through shell integration, so they land in the terminal
// logs like the user's own; edits are WorkspaceEdits. Both ask for approval first unless
// contextDesk.agent.approveCommands is off.
import * as vscode from 'vscode';
import type { ToolOutput } from '../../core/agent/tool-registry';
import type { CommandPort, EditFilePort, EditRequest } from '../../core/agent/tools';
import type { ApprovalBroker } from './approvals';

const TERMINAL_NAME = 'Context Desk Agent';

export interface HostPortOptions {
  workspaceRoot: string;
  approvals: ApprovalBroker;
  approve: () => boolean;
}

/** The core's edit_file / run_command tools check paths and arguments; these ports do the VS Code part. */
export function hostPorts(o: HostPortOptions): { edit: EditFilePort; command: CommandPort } {
  return {
    command: {
      async run(request, ctx): Promise<ToolOutput> {
        if (
          o.approve() &&
          !(await o.approvals.ask('command', 'Run this command?', `${request.command}\n(in ${request.cwd})`))
        ) {
          return { ok: false, text: 'The user declined to run this command.' };
        }
        const line =
          request.cwd === o.workspaceRoot ? request.command : `cd ${shellQuote(request.cwd)} && ${request.command}`;
        return runInTerminal(line, o.workspaceRoot, request.timeoutMs, ctx.signal);
      },
    },
    edit: { edit: (request) => applyEdit(request, o) },
  };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

async function agentTerminal(cwd: string | undefined): Promise<vscode.Terminal> {
  const existing = vscode.window.terminals.find((t) => t.name === TERMINAL_NAME && t.exitStatus === undefined);
  const terminal = existing ?? vscode.window.createTerminal({ name: TERMINAL_NAME, ...(cwd ? { cwd } : {}) });
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

async function runInTerminal(
  command: string,
  cwd: string | undefined,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ToolOutput> {
  const terminal = await agentTerminal(cwd);
  const integration = terminal.shellIntegration;
  if (!integration) {
    return {
      ok: false,
      text: 'The agent terminal has no shell integration, so its output cannot be read. Enable terminal.integrated.shellIntegration.enabled and use bash, zsh, fish or PowerShell.',
    };
  }
  const execution = integration.executeCommand(command);
  const ended = new Promise<number | undefined>((resolve) => {
    const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.execution === execution) {
        sub.dispose();
        resolve(e.exitCode);
      }
    });
  });
  let output = '';
  let stopped: 'timeout' | 'aborted' | undefined;
  const interrupt = (why: 'timeout' | 'aborted'): void => {
    stopped ??= why;
    terminal.sendText('\x03', false);
  };
  const timer = setTimeout(() => interrupt('timeout'), timeoutMs);
  const onAbort = (): void => interrupt('aborted');
  signal.addEventListener('abort', onAbort);
  try {
    for await (const chunk of execution.read()) output += chunk;
    const exitCode = await Promise.race([ended, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]);
    const tail =
      stopped === 'timeout'
        ? `\n[stopped after ${timeoutMs / 1000} s]`
        : stopped === 'aborted'
          ? '\n[stopped by the user]'
          : '';
    return { ok: exitCode === 0, text: `${output}${tail}\n[exit code: ${exitCode ?? 'unknown'}]` };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

async function applyEdit(request: EditRequest, o: HostPortOptions): Promise<ToolOutput> {
  const uri = vscode.Uri.file(request.absolute);
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  const edit = new vscode.WorkspaceEdit();
  let summary: string;
  if (request.oldText === undefined) {
    if (exists) {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), request.newText);
      summary = `overwrite ${request.display} (${request.newText.split('\n').length} lines)`;
    } else {
      edit.createFile(uri, { contents: new TextEncoder().encode(request.newText) });
      summary = `create ${request.display} (${request.newText.split('\n').length} lines)`;
    }
  } else {
    if (!exists) return { ok: false, text: `${request.display} does not exist; leave out old_text to create it.` };
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    const at = text.indexOf(request.oldText);
    if (at === -1) return { ok: false, text: `old_text was not found in ${request.display}.` };
    if (text.indexOf(request.oldText, at + 1) !== -1)
      return { ok: false, text: `old_text occurs more than once in ${request.display}; include more context.` };
    edit.replace(
      uri,
      new vscode.Range(doc.positionAt(at), doc.positionAt(at + request.oldText.length)),
      request.newText,
    );
    const minus = request.oldText.split('\n').join('\n- ');
    const plus = request.newText.split('\n').join('\n+ ');
    summary = `${request.display}:${doc.positionAt(at).line + 1}\n- ${minus}\n+ ${plus}`;
  }
  if (o.approve() && !(await o.approvals.ask('edit', 'Apply this edit?', summary))) {
    return { ok: false, text: 'The user declined this edit.' };
  }
  if (!(await vscode.workspace.applyEdit(edit))) return { ok: false, text: 'VS Code could not apply the edit.' };
  await (await vscode.workspace.openTextDocument(uri)).save();
  return { ok: true, text: `Edited ${request.display}.` };
}
