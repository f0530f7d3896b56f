// Activation wires things together and returns; nothing here thinks. Heavy modules (MCP, tokenizer,
// agent, stores) live in dist/features.js and load on first use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentViewProvider, AGENT_VIEW_ID } from './agentView';
import { registerCommands } from './commands';
import { createLogger } from './log';
import { SECTION, panelSettings, readSettings, type Settings } from './settings';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { resolveContextFolder } from './contextFolder';
import { registerToolsView, type ToolsControllers } from './mcp/register';
import { features, lazy } from './lazy';
import { panelHandlers } from './agent/panelHandlers';
import type { ChatController } from './agent/chatController';
import { ContextStatusBar } from './statusBar';
import type { TerminalCapture } from './store/terminalCapture';
import { registerStoreCommands } from './store/storeCommands';
import { StoreLinkProvider } from './store/links';
import { registerLmTools } from './store/lmTools';

/** What activate() returns: used by the integration tests and by other extensions. */
export interface ContextDeskApi {
  /** Milliseconds from activate() entry to return. */
  activationMs: number;
  agentView: Pick<AgentViewProvider, 'whenReady' | 'ping' | 'snapshot'>;
  /** Where the store lives for this window. */
  contextFolder: () => string;
  /** MCP and skills; the first call loads them. */
  tools: () => ToolsControllers;
  /** The agent chat; the first call loads it. */
  chat: () => ChatController;
  /** Terminal capture; the first shell execution loads it. */
  terminals: () => TerminalCapture;
}

export function activate(context: vscode.ExtensionContext): ContextDeskApi {
  const started = performance.now();
  const { channel, logger } = createLogger(context);
  const version = (context.extension.packageJSON as { version: string }).version;
  const settings = (): Settings => readSettings(vscode.workspace.getConfiguration(SECTION));
  const contextFolder = (): ReturnType<typeof resolveContextFolder> =>
    resolveContextFolder(context, settings().storeFolder);
  const statusBar = new ContextStatusBar();

  // The view provider needs the handlers and the chat needs the view: the chat is created lazily, after both exist.
  const chat = lazy<ChatController>(() => {
    const controller = new (features().ChatController)({
      extensionPath: context.extensionPath,
      secrets: context.secrets,
      state: context.workspaceState,
      settings,
      storeRoot: contextFolder,
      hostPorts: (workspaceRoot, approvals) =>
        features().hostPorts({ workspaceRoot, approvals, approve: () => settings()['agent.approveCommands'] }),
      extras: async () => {
        const { mcp, skills } = tools();
        const [servers, found] = await Promise.all([mcp.ready(), skills.refresh()]);
        const f = features();
        const folder = contextFolder();
        const mcpFolder = folder.workspaceFolder
          ? path.relative(folder.workspaceFolder, path.join(folder.root, 'mcp'))
          : path.join(folder.root, 'mcp');
        const prompt = [
          f.renderMcpStaticPrompt(servers, mcpFolder),
          f.renderSkillsPrompt(found, folder.workspaceFolder),
        ]
          .filter(Boolean)
          .join('\n\n');
        // Skills found outside the workspace (home, the setting) are readable, never writable.
        const readRoots = [...new Set(found.map((skill) => skill.dir))];
        return { ...(servers.length ? { mcp: mcp.manager } : {}), prompt, readRoots };
      },
      post: (patches) => {
        agentView.postPatches(patches);
        statusBar.update(controller.snapshot);
      },
      postSnapshot: (snapshot) => {
        agentView.postSnapshot(snapshot);
        statusBar.update(snapshot);
      },
      // The view title's Stop shows only while the agent runs.
      onRunning: (running) => void vscode.commands.executeCommand('setContext', 'contextDesk.agentRunning', running),
      logger,
    });
    context.subscriptions.push(controller);
    return controller;
  });
  const agentView: AgentViewProvider = new AgentViewProvider(
    context.extensionUri,
    () => ({
      protocolVersion: PROTOCOL_VERSION,
      extensionVersion: version,
      settings: panelSettings(settings()),
      chat: chat().snapshot,
    }),
    panelHandlers({
      chat,
      settings,
      secrets: context.secrets,
      showLog: () => channel.show(true),
      openStored: (reference) => openStored(reference),
      isAllowedCommand: (c) => agentView.isAllowedCommand(c),
    }),
    logger,
  );
  context.subscriptions.push(
    agentView,
    statusBar,
    vscode.window.registerWebviewViewProvider(AGENT_VIEW_ID, agentView),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) agentView.notifySettings();
      if (['agent', 'maskingWindow', 'cachedInputPrice'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`)))
        chat.peek()?.settingsChanged();
    }),
  );
  registerCommands(context, {
    agentView,
    channel,
    chat,
    secrets: context.secrets,
    provider: () => settings()['agent.provider'],
    endpoint: () => {
      const s = settings();
      return s['agent.provider'] === 'anthropic' ? s['agent.anthropicBaseUrl'] || undefined : s['agent.baseUrl'];
    },
    showView: (view) => agentView.showView(view),
    focusComposer: () => agentView.focusComposer(),
  });

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

  // Every terminal is captured; the capture code loads with the first command that runs.
  const terminals = lazy<TerminalCapture>(() => {
    const capture = new (features().TerminalCapture)(contextFolder, () => settings()['terminals.capture'], logger);
    context.subscriptions.push(capture);
    return capture;
  });
  const openStored = (reference: string): Promise<boolean> =>
    features().openStoredReference(contextFolder(), reference);
  context.subscriptions.push(
    vscode.window.onDidStartTerminalShellExecution((e) => terminals().started(e)),
    vscode.window.onDidEndTerminalShellExecution((e) => void terminals().ended(e)),
    vscode.window.onDidCloseTerminal((t) => void terminals.peek()?.closed(t)),
    vscode.languages.registerDocumentLinkProvider(
      { scheme: 'file', pattern: '**/history/*.md' },
      new StoreLinkProvider(),
    ),
  );
  registerStoreCommands(context, { folder: contextFolder, chat: () => chat.peek()?.snapshot, terminals, openStored });
  registerLmTools(context, () => features().openContextStore(contextFolder()), terminals);

  const activationMs = performance.now() - started;
  logger.info(`Context Desk ${version} activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs, agentView, contextFolder: () => contextFolder().root, tools, chat, terminals };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
