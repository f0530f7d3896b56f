// Language-model tools, so other agents in VS Code (e.g. Copilot agent mode) get terminals-as-files
// too: grep the logs, read a stored file by line range, list terminals. Registered at activation; the
// handlers load with the features bundle on first use.
import * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import { features } from '../lazy';
import type { TerminalCapture } from './terminalCapture';

const text = (s: string): vscode.LanguageModelToolResult =>
  new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

export function registerLmTools(
  context: vscode.ExtensionContext,
  store: () => Promise<ContextStore>,
  terminals: () => TerminalCapture,
): void {
  // Failures come back as text (answerOrFailure), with the tool's name, like refusals do.
  const answer = async (
    tool: string,
    token: vscode.CancellationToken,
    run: () => Promise<string>,
  ): Promise<vscode.LanguageModelToolResult> =>
    text(await features().answerOrFailure(tool, run, () => token.isCancellationRequested));
  context.subscriptions.push(
    // Inputs are typed as unknown: VS Code does not check them against the inputSchema, and the handlers do.
    vscode.lm.registerTool<Record<string, unknown>>('contextDesk_grepLogs', {
      invoke: (options, token) =>
        answer('contextDesk_grepLogs', token, async () => {
          const controller = new AbortController();
          const cancel = token.onCancellationRequested(() => controller.abort());
          try {
            const locate = { appRoot: vscode.env.appRoot };
            return await features().grepText(await store(), options.input, controller.signal, locate);
          } finally {
            cancel.dispose();
          }
        }),
    }),
    vscode.lm.registerTool<Record<string, unknown>>('contextDesk_readStoredFile', {
      invoke: (options, token) =>
        answer('contextDesk_readStoredFile', token, async () => features().readStored(await store(), options.input)),
    }),
    vscode.lm.registerTool<Record<string, never>>('contextDesk_listTerminals', {
      invoke: (_options, token) =>
        answer('contextDesk_listTerminals', token, async () => {
          const list = (await terminals().list()).map(({ terminal, ...rest }) => ({ name: terminal.name, ...rest }));
          return features().terminalsText(await store(), list);
        }),
    }),
  );
}
