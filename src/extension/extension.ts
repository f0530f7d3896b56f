// Activation wires things together and returns; nothing here thinks. Heavy modules load lazily.
import * as vscode from 'vscode';
import { AgentViewProvider, AGENT_VIEW_ID } from './agentView';
import { registerCommands } from './commands';
import { createLogger } from './log';
import { SECTION, panelSettings, readSettings } from './settings';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { resolveContextFolder } from './contextFolder';
import { registerToolsView, type ToolsControllers } from './mcp/register';
import { features, lazy } from './lazy';
import { emptyChat } from './agent/chatModel';

/** What activate() returns: used by the integration tests and by other extensions. */
export interface ContextDeskApi {
  /** Milliseconds from activate() entry to return. */
  activationMs: number;
  agentView: Pick<AgentViewProvider, 'whenReady' | 'ping' | 'snapshot'>;
  /** Where the store lives for this window. */
  contextFolder: () => string;
  /** MCP and skills; the first call loads them. */
  tools: () => ToolsControllers;
}

export function activate(context: vscode.ExtensionContext): ContextDeskApi {
  const started = performance.now();
  const { channel, logger } = createLogger(context);
  const version = (context.extension.packageJSON as { version: string }).version;
  const settings = (): ReturnType<typeof readSettings> => readSettings(vscode.workspace.getConfiguration(SECTION));

  const agentView = new AgentViewProvider(
    context.extensionUri,
    () => ({
      protocolVersion: PROTOCOL_VERSION,
      extensionVersion: version,
      settings: panelSettings(settings()),
      chat: emptyChat('none', settings().strategy, 128_000, settings().tokenizer === 'chars4'),
    }),
    {
      showLog: () => {
        channel.show(true);
        return { shown: true };
      },
      runCommand: async ({ command }) => {
        if (!agentView.isAllowedCommand(command)) throw new Error(`The panel may not run '${command}'`);
        await vscode.commands.executeCommand(command);
        return { ran: true };
      },
    },
    logger,
  );
  context.subscriptions.push(
    agentView,
    vscode.window.registerWebviewViewProvider(AGENT_VIEW_ID, agentView, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) agentView.notifySettings();
    }),
  );
  registerCommands(context, agentView, channel);

  const contextFolder = (): ReturnType<typeof resolveContextFolder> =>
    resolveContextFolder(context, settings().storeFolder);
  const tools = lazy<ToolsControllers>(() => {
    const f = features();
    const mcp = new f.McpController(context.secrets, {
      outDir: () => contextFolder().root,
      workspaceFolder: () => contextFolder().workspaceFolder,
      settingServers: () => settings()['mcp.servers'],
      logger,
    });
    const skills = new f.SkillsController(
      () => contextFolder().workspaceFolder,
      () => settings()['skills.folders'],
      logger,
    );
    context.subscriptions.push(mcp, skills);
    return { mcp, skills };
  });
  registerToolsView(context, tools);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('contextDesk.mcp.servers') || e.affectsConfiguration('contextDesk.storeFolder'))
        tools.peek()?.mcp.refreshIfStarted();
    }),
  );

  const activationMs = performance.now() - started;
  logger.info(`Context Desk ${version} activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs, agentView, contextFolder: () => contextFolder().root, tools };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
