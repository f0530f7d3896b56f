// The agent's tools that need VS Code: commands in a visible terminal (through shell integration, so
// they land in the terminal logs like the user's own) and edits applied as WorkspaceEdits. Both ask for
// approval first unless contextDesk.agent.approveCommands is off.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentTool, ToolOutput } from '../../core/agent/tool-registry';
import type { ApprovalBroker } from './approvals';

const TERMINAL_NAME = 'Context Desk Agent';
const DEFAULT_TIMEOUT_S = 120;

export interface HostToolOptions {
  workspaceRoot: string | undefined;
  approvals: ApprovalBroker;
  approve: () => boolean;
}

export function hostTools(o: HostToolOptions): AgentTool[] {
  return [runCommandTool(o), editFileTool(o)];
}

function insideWorkspace(root: string, p: string): string | undefined {
  const abs = path.resolve(root, p);
  const rel = path.relative(root, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : abs;
}

function runCommandTool(o: HostToolOptions): AgentTool {
  return {
    name: 'run_command',
    description:
      'Runs a shell command in a visible VS Code terminal in the workspace and returns its output and exit code. Long output is stored in a file; read, tail or grep it.',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line.' },
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 3600, description: `Default ${DEFAULT_TIMEOUT_S}.` },
      },
      required: ['command'],
      additionalProperties: false,
    },
    async run(args, ctx): Promise<ToolOutput> {
      const command = String(args.command);
      if (o.approve() && !(await o.approvals.ask('command', 'Run this command?', command))) {
        return { ok: false, text: 'The user declined to run this command.' };
      }
      const timeoutMs = (Number(args.timeout_seconds) || DEFAULT_TIMEOUT_S) * 1000;
      return runInTerminal(command, o.workspaceRoot, timeoutMs, ctx.signal);
    },
  };
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

function editFileTool(o: HostToolOptions): AgentTool {
  return {
    name: 'edit_file',
    description:
      'Replaces exactly one occurrence of old_text with new_text in a workspace file (old_text empty: creates the file with new_text). Shows the change for approval.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path.' },
        old_text: { type: 'string' },
        new_text: { type: 'string' },
      },
      required: ['path', 'old_text', 'new_text'],
      additionalProperties: false,
    },
    async run(args): Promise<ToolOutput> {
      if (!o.workspaceRoot) return { ok: false, text: 'No workspace folder is open.' };
      const file = insideWorkspace(o.workspaceRoot, String(args.path));
      if (!file) return { ok: false, text: `Refused: ${String(args.path)} is outside the workspace.` };
      const uri = vscode.Uri.file(file);
      const oldText = String(args.old_text);
      const newText = String(args.new_text);
      const edit = new vscode.WorkspaceEdit();
      let summary: string;
      if (oldText === '') {
        const exists = await vscode.workspace.fs.stat(uri).then(
          () => true,
          () => false,
        );
        if (exists) return { ok: false, text: `${String(args.path)} exists; give old_text to change it.` };
        edit.createFile(uri, { contents: new TextEncoder().encode(newText) });
        summary = `create ${String(args.path)} (${newText.split('\n').length} lines)`;
      } else {
        const doc = await vscode.workspace.openTextDocument(uri);
        const text = doc.getText();
        const at = text.indexOf(oldText);
        if (at === -1) return { ok: false, text: `old_text was not found in ${String(args.path)}.` };
        if (text.indexOf(oldText, at + 1) !== -1)
          return { ok: false, text: `old_text occurs more than once in ${String(args.path)}; include more context.` };
        edit.replace(uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + oldText.length)), newText);
        summary = `${String(args.path)}:${doc.positionAt(at).line + 1}\n- ${oldText.split('\n').join('\n- ')}\n+ ${newText.split('\n').join('\n+ ')}`;
      }
      if (o.approve() && !(await o.approvals.ask('edit', 'Apply this edit?', summary))) {
        return { ok: false, text: 'The user declined this edit.' };
      }
      if (!(await vscode.workspace.applyEdit(edit))) return { ok: false, text: 'VS Code could not apply the edit.' };
      const doc = await vscode.workspace.openTextDocument(uri);
      await doc.save();
      return { ok: true, text: `Edited ${String(args.path)}.` };
    },
  };
}
