// Command handlers. Each is a thin call into the view or the core; ids match package.json.
import * as vscode from 'vscode';
import type { AgentViewProvider } from './agentView';

export const COMMANDS = {
  showPanel: 'contextDesk.showPanel',
  showLog: 'contextDesk.showLog',
  pingPanel: 'contextDesk.pingPanel',
} as const;

export function registerCommands(
  context: vscode.ExtensionContext,
  view: AgentViewProvider,
  channel: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.showPanel, async () => {
      await vscode.commands.executeCommand('contextDesk.agent.focus');
    }),
    vscode.commands.registerCommand(COMMANDS.showLog, () => channel.show(true)),
    vscode.commands.registerCommand(COMMANDS.pingPanel, async () => {
      await vscode.commands.executeCommand('contextDesk.agent.focus');
      try {
        const { roundTripMs } = await view.ping();
        void vscode.window.showInformationMessage(`Context Desk: the Agent panel answered in ${roundTripMs} ms.`);
        return roundTripMs;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const choice = await vscode.window.showErrorMessage(
          `Context Desk: the Agent panel did not answer (${message}).`,
          'Show Log',
          'Reload Window',
        );
        if (choice === 'Show Log') channel.show(true);
        if (choice === 'Reload Window') await vscode.commands.executeCommand('workbench.action.reloadWindow');
        return undefined;
      }
    }),
  );
}
