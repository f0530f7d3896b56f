// Command handlers. Each is a thin call into the view or the controllers; ids match package.json.
import * as vscode from 'vscode';
import type { AgentViewProvider } from './agentView';
import type { Lazy } from './lazy';
import type { ChatController } from './agent/chatController';
import { currentEndpoint, originOf, storeApiKey } from './agent/apiKeys';
import type { PanelView } from '../protocol/messages';

export const COMMANDS = {
  showPanel: 'contextDesk.showPanel',
  showLog: 'contextDesk.showLog',
  pingPanel: 'contextDesk.pingPanel',
  setApiKey: 'contextDesk.setApiKey',
  configureAgent: 'contextDesk.configureAgent',
  newChat: 'contextDesk.newChat',
  stop: 'contextDesk.stop',
  showHistory: 'contextDesk.showHistory',
  focusAgent: 'contextDesk.focusAgent',
} as const;

export { apiKeySecret } from './agent/apiKeys';

export interface CommandDeps {
  agentView: AgentViewProvider;
  channel: vscode.LogOutputChannel;
  chat: Lazy<ChatController>;
  secrets: vscode.SecretStorage;
  /** The configured `agent.provider`. */
  provider: () => string;
  /** Shows the Agent panel on one of its views. */
  showView: (view: PanelView) => Promise<void>;
  focusComposer: () => Promise<void>;
}

export function registerCommands(context: vscode.ExtensionContext, d: CommandDeps): void {
  const focus = (): Thenable<unknown> => vscode.commands.executeCommand('contextDesk.agent.focus');
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.showPanel, focus),
    vscode.commands.registerCommand(COMMANDS.showLog, () => d.channel.show(true)),
    vscode.commands.registerCommand(COMMANDS.newChat, async () => {
      await focus();
      return d.chat().newChat();
    }),
    vscode.commands.registerCommand(COMMANDS.stop, () => d.chat.peek()?.stop() ?? false),
    vscode.commands.registerCommand(COMMANDS.showHistory, () => d.showView('history')),
    vscode.commands.registerCommand(COMMANDS.focusAgent, () => d.focusComposer()),
    vscode.commands.registerCommand(COMMANDS.setApiKey, async () => {
      const provider = d.provider();
      if (provider === 'vscode-lm' || provider === 'demo') {
        void vscode.window.showInformationMessage(
          provider === 'demo'
            ? 'Context Desk: the demo model needs no API key.'
            : 'Context Desk: VS Code language models need no API key; VS Code asks you to allow Context Desk on first use.',
        );
        return;
      }
      const endpoint = currentEndpoint(provider);
      const origin = originOf(endpoint.url);
      const key = await vscode.window.showInputBox({
        title: `Context Desk: API key for ${provider === 'anthropic' ? 'Anthropic' : "the agent's OpenAI-compatible endpoint"}`,
        prompt: `Kept in VS Code's secret storage and sent only to ${origin}${endpoint.fromWorkspace ? " (the endpoint set in this workspace's settings)" : ''}. Leave empty to remove the stored key.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      await storeApiKey(d.secrets, provider, key, origin);
      void vscode.window.showInformationMessage(`Context Desk: API key ${key === '' ? 'removed' : 'stored'}.`);
    }),
    // The provider form lives in the panel (provider, endpoint, model, key, Test connection).
    vscode.commands.registerCommand(COMMANDS.configureAgent, () => d.showView('setup')),
    vscode.commands.registerCommand(COMMANDS.pingPanel, async () => {
      await focus();
      try {
        const { roundTripMs } = await d.agentView.ping();
        void vscode.window.showInformationMessage(`Context Desk: the Agent panel answered in ${roundTripMs} ms.`);
        return roundTripMs;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const choice = await vscode.window.showErrorMessage(
          `Context Desk: the Agent panel did not answer (${message}).`,
          'Show Log',
          'Reload Window',
        );
        if (choice === 'Show Log') d.channel.show(true);
        if (choice === 'Reload Window') await vscode.commands.executeCommand('workbench.action.reloadWindow');
        return undefined;
      }
    }),
  );
}
