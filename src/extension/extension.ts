// Activation wires things together and returns; nothing here thinks. Heavy modules (MCP, tokenizer,
// agent, stores) live in dist/features.js and load on first use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentViewProvider, AGENT_VIEW_ID } from './agentView';
import { registerCommands } from './commands';
import { createLogger } from './log';
import { SECTION, SESSION_SETTING_PREFIXES, panelSettings, readSettings, type Settings } from './settings';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { ContextFolders } from './contextFolder';
import { RESTRICTED_MODE_MESSAGE } from './trust';
import { registerToolsView, type ToolsControllers } from './mcp/register';
import { features, featuresIfLoaded, lazy } from './lazy';
import { panelHandlers } from './agent/panelHandlers';
import { DraftKeeper, notSentText } from './agent/draft';
import type { PanelMemory } from '../protocol/panelMemory';
import type { ChatController } from './agent/chatController';
import { ContextStatusBar } from './statusBar';
import type { TerminalCapture } from './store/terminalCapture';
import type { ContextStore } from '../core/store/context-store';
import { registerStoreCommands } from './store/storeCommands';
import { StoreLinkProvider } from './store/links';
import { STORE_FILE_SCHEME, StoreFileView } from './store/storeFileView';
import { registerLmTools } from './store/lmTools';
import { McpAllowList } from './agent/mcpAllowList';
import { McpStartConsent, workspaceValueNames } from './mcp/startConsent';
import { PROPOSED_SCHEME, ProposedEdits } from './agent/proposedEdits';
import { registerRedactionPatterns } from './redaction';

/** What activate() returns: used by the integration tests and by other extensions. */
export interface ContextDeskApi {
  /** Milliseconds from activate() entry to return. */
  activationMs: number;
  agentView: Pick<AgentViewProvider, 'whenReady' | 'ping' | 'snapshot'>;
  /** Where the store lives for this window. */
  contextFolder: () => string;
  /** The window's store, opened through the one StoreAccess (refused folders fall back, links are told once). */
  openStore: () => Promise<ContextStore>;
  /** MCP and skills; the first call loads them. */
  tools: () => ToolsControllers;
  /** The agent chat; the first call loads it. */
  chat: () => ChatController;
  /** Terminal capture; the first shell execution loads it. */
  terminals: () => TerminalCapture;
  /** The tiktoken encodings this extension host holds now (tests and the memory benchmark check them). */
  loadedEncodings: () => string[];
  /** The composer text the panel gets when it opens (what a reload brings back, redacted). */
  composerDraft: () => string;
  /** The draft as VS Code's workspace storage holds it: what the next window gets. */
  composerDraftStored: () => string | undefined;
  /** What the panel's saveDraft request does as the person types (resolves when the panel's would). */
  saveDraft: (text: string) => Promise<void>;
}

export function activate(context: vscode.ExtensionContext): ContextDeskApi {
  const started = performance.now();
  const { channel, logger } = createLogger(context);
  const version = (context.extension.packageJSON as { version: string }).version;
  const settings = (): Settings => readSettings(vscode.workspace.getConfiguration(SECTION));
  const folders = new ContextFolders(context);
  const contextFolder = (): ReturnType<ContextFolders['current']> => folders.current();
  // Store files open read-only, as read from the checked file (never by path: a link swapped in would show).
  const storeFiles: StoreFileView = new StoreFileView(async (): Promise<string> => (await storeAccess().open()).root);
  context.subscriptions.push(
    storeFiles,
    vscode.workspace.registerTextDocumentContentProvider(STORE_FILE_SCHEME, storeFiles),
  );
  // Every part of the window opens the store through this one object (refusals and links are told once).
  const storeAccess = lazy(() => new (features().StoreAccess)(folders, logger, storeFiles.show));
  const statusBar = new ContextStatusBar();
  const mcpAllowList = new McpAllowList(context.workspaceState);
  const mcpStartConsent = new McpStartConsent(context.workspaceState);
  // Edits waiting for approval are shown in VS Code's diff editor from these virtual documents.
  const proposals = new ProposedEdits();
  context.subscriptions.push(
    proposals,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, proposals),
  );
  registerRedactionPatterns(context, settings, logger);
  const draft = new DraftKeeper(context.workspaceState, (text) => features().redactSecretsSync(text).text);

  // The view provider needs the handlers and the chat needs the view: the chat is created lazily, after both exist.
  const chat = lazy<ChatController>(() => {
    const controller = new (features().ChatController)({
      extensionPath: context.extensionPath,
      secrets: context.secrets,
      state: context.workspaceState,
      settings,
      storeRoot: contextFolder,
      openStore: () => storeAccess().open(),
      showStoreFile: storeFiles.show,
      // Restricted Mode: the agent reads and searches, but runs no command and makes no edit.
      hostPorts: (_workspaceRoot, approvals) =>
        features().guardHostPorts(
          features().hostPorts({
            approvals,
            approve: () => settings()['agent.approveCommands'],
            proposals,
          }),
          () => vscode.workspace.isTrusted,
          logger,
        ),
      mcpApproval: (approvals) =>
        features().mcpApprovalPort({
          approvals,
          allowList: mcpAllowList,
          approve: () => settings()['agent.approveCommands'],
          trustReadOnly: () => settings()['agent.autoApproveReadOnlyMcpTools'],
          workspaceRoot: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
        }),
      extras: async () => {
        const { mcp, skills } = tools();
        const [servers, found] = await Promise.all([mcp.ready(), skills.refresh()]);
        const f = features();
        const folder = contextFolder();
        const mcpFolder = folder.workspaceFolder
          ? path.relative(folder.workspaceFolder, path.join(folder.root, 'mcp'))
          : path.join(folder.root, 'mcp');
        const prompt = [
          vscode.workspace.isTrusted ? '' : f.RESTRICTED_MODE_PROMPT,
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
        const notSent = notSentText(patches, controller.snapshot);
        if (notSent !== undefined) void draft.takeBack(notSent).catch(() => undefined);
        statusBar.update(controller.snapshot);
      },
      postSnapshot: (snapshot) => {
        agentView.postSnapshot(snapshot);
        statusBar.update(snapshot);
      },
      keepUnsent: (text) => void draft.keepUnsent(text).catch(() => undefined),
      keepWaiting: (text) => void draft.keepWaiting(text).catch(() => undefined),
      // The view title's Stop shows only while the agent runs.
      onRunning: (running) => void vscode.commands.executeCommand('setContext', 'contextDesk.agentRunning', running),
      logger,
    });
    context.subscriptions.push(controller);
    return controller;
  });
  // Memory only: it may hold a key typed into the setup form (see protocol/panelMemory.ts).
  let panelMemory: PanelMemory = {};
  const handlers = panelHandlers({
    chat,
    settings,
    secrets: context.secrets,
    showLog: () => channel.show(true),
    openStored: (reference) => openStored(reference),
    isAllowedCommand: (c) => agentView.isAllowedCommand(c),
    saveDraft: (text) => draft.set(text),
    keepMemory: (memory) => (panelMemory = memory),
  });
  const agentView: AgentViewProvider = new AgentViewProvider(
    context.extensionUri,
    () => ({
      protocolVersion: PROTOCOL_VERSION,
      extensionVersion: version,
      settings: panelSettings(settings()),
      chat: chat().snapshot,
      draft: draft.get(),
      memory: panelMemory,
    }),
    handlers,
    logger,
  );
  context.subscriptions.push(
    agentView,
    statusBar,
    vscode.window.registerWebviewViewProvider(AGENT_VIEW_ID, agentView),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) agentView.notifySettings();
      // Strategy, tokenizer, window and budget reach even a running session, from its next model call.
      if (SESSION_SETTING_PREFIXES.some((k) => e.affectsConfiguration(`${SECTION}.${k}`)))
        chat.peek()?.settingsChanged();
    }),
  );
  registerCommands(context, {
    agentView,
    channel,
    chat,
    secrets: context.secrets,
    provider: () => settings()['agent.provider'],
    showView: (view) => agentView.showView(view),
    focusComposer: () => agentView.focusComposer(),
  });

  const tools = lazy<ToolsControllers>(() => {
    const f = features();
    const mcp = new f.McpController(context.secrets, {
      outDir: () => contextFolder().root,
      openStore: () => storeAccess().open(),
      workspaceFolder: () => contextFolder().workspaceFolder,
      settingServers: () => settings()['mcp.servers'],
      workspaceSettingServerNames: () =>
        workspaceValueNames(vscode.workspace.getConfiguration(SECTION).inspect('mcp.servers')),
      startConsent: mcpStartConsent,
      deadlineSeconds: () => settings()['mcp.listTimeoutSeconds'],
      logger,
    });
    const skills = new f.SkillsController(() => contextFolder().workspaceFolder, logger);
    context.subscriptions.push(mcp, skills);
    return { mcp, skills };
  });
  registerToolsView(context, tools, storeFiles.show);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        ['mcp.servers', 'mcp.listTimeoutSeconds', 'storeFolder'].some((k) => e.affectsConfiguration(`contextDesk.${k}`))
      )
        tools.peek()?.mcp.refreshIfStarted();
    }),
  );

  // Every terminal is captured; the capture code loads with the first command or task that runs, or
  // right after activation when terminals are already open (their logs say what was missed).
  const terminals = lazy<TerminalCapture>(() => {
    const capture = new (features().TerminalCapture)(
      () => storeAccess().open(),
      () => settings()['terminals.capture'],
      logger,
    );
    context.subscriptions.push(capture);
    return capture;
  });
  if (vscode.window.terminals.length > 0 && settings()['terminals.capture'])
    setImmediate(() => terminals().adopt(vscode.window.terminals, vscode.tasks.taskExecutions));
  const openStored = (reference: string): Promise<boolean> => storeAccess().openStored(reference);
  context.subscriptions.push(
    vscode.window.onDidStartTerminalShellExecution((e) => terminals().started(e)),
    vscode.window.onDidEndTerminalShellExecution((e) => void terminals().ended(e)),
    vscode.tasks.onDidStartTaskProcess((e) => terminals().taskStarted(e)),
    vscode.tasks.onDidEndTaskProcess((e) => void terminals.peek()?.taskEnded(e)),
    vscode.window.onDidCloseTerminal((t) => void terminals.peek()?.closed(t)),
    vscode.languages.registerDocumentLinkProvider(
      [
        { scheme: 'file', pattern: '**/history/*.md' },
        { scheme: STORE_FILE_SCHEME, pattern: '**/history/*.md' },
      ],
      new StoreLinkProvider(),
    ),
  );
  registerStoreCommands(context, {
    folder: contextFolder,
    openStore: () => storeAccess().open(),
    chat: () => chat.peek()?.snapshot,
    terminals,
    openStored,
    showFile: storeFiles.show,
  });
  registerLmTools(context, () => storeAccess().open(), terminals);
  context.subscriptions.push(
    vscode.commands.registerCommand('contextDesk.resetMcpApprovals', async () => {
      const n = await mcpAllowList.reset();
      void vscode.window.showInformationMessage(
        n === 0
          ? 'Context Desk: no MCP tool was set to "always allow" in this workspace.'
          : `Context Desk: MCP tool approvals reset; ${n} tool${n === 1 ? '' : 's'} will be asked about again.`,
      );
      return n;
    }),
    vscode.commands.registerCommand('contextDesk.mcp.forgetAllowedServers', async () => {
      const n = await mcpStartConsent.reset();
      // Servers running now are stopped until they are allowed again.
      tools.peek()?.mcp.refreshIfStarted();
      void vscode.window.showInformationMessage(
        n === 0
          ? 'Context Desk: no MCP server of this workspace was allowed to start.'
          : `Context Desk: ${n} workspace MCP server${n === 1 ? '' : 's'} will ask again before starting.`,
      );
      return n;
    }),
  );

  if (!vscode.workspace.isTrusted) logger.info(RESTRICTED_MODE_MESSAGE);
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      logger.info(
        'The workspace is trusted now: its settings apply, MCP servers may start, the agent may run commands and edit.',
      );
      // The next message builds a session with the trusted settings, store folder and prompt.
      chat.peek()?.settingsChanged();
    }),
  );

  const activationMs = performance.now() - started;
  logger.info(`Context Desk ${version} activated in ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    agentView,
    contextFolder: () => contextFolder().root,
    openStore: () => storeAccess().open(),
    tools,
    chat,
    terminals,
    loadedEncodings: () => featuresIfLoaded()?.loadedEncodings().names ?? [],
    composerDraft: () => draft.get(),
    composerDraftStored: () => draft.stored(),
    saveDraft: async (text) => {
      await handlers.saveDraft({ text });
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
