// Wires the core's McpSyncManager into VS Code: trust, settings, SecretStorage for ${input:...}, a
// watcher on the config files, VS Code's own tools as the server `vscode`, and progress while syncing.
import * as vscode from 'vscode';
import {
  isInternalVscodeTool,
  McpSyncManager,
  WORKSPACE_CONFIG_FILES,
  type McpInputDeclaration,
  type McpServerState,
  type VscodeToolInfo,
} from '../../core/mcp';
import type { Logger } from '../../core/ports';
import type { ContextStore } from '../../core/store/context-store';
import type { McpServerConfig } from '../../core/mcp/types';
import { visibleName } from '../../core/agent/tools/mcp';
import { askToStart, type ConsentUi } from './consentPrompt';
import { StartPrompts } from './startPrompts';
import { consentKey, definedByWorkspace, type McpStartConsent } from './startConsent';
import { CoalescedRuns } from '../../core/coalesced-runs';

export interface McpControllerOptions {
  outDir: () => string;
  /** The window's store (every MCP file goes through its writer). */
  openStore: () => Promise<ContextStore>;
  workspaceFolder: () => string | undefined;
  settingServers: () => unknown;
  /** Names of servers that a workspace (or folder) value of `contextDesk.mcp.servers` defines. */
  workspaceSettingServerNames: () => ReadonlySet<string>;
  /** Servers the workspace defines start only once allowed here. */
  startConsent: McpStartConsent;
  /** `contextDesk.mcp.listTimeoutSeconds`: the overall deadline per server. */
  deadlineSeconds: () => number;
  logger: Logger;
}

export class McpController implements vscode.Disposable {
  readonly manager: McpSyncManager;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Syncs never overlap; calls during one share the next. */
  private readonly syncs = new CoalescedRuns(() => this.sync());
  private started = false;
  /** Servers the workspace defines that the last sync did not start for want of consent, by identity key. */
  private waiting = new Map<string, McpServerConfig>();
  /** The same, filled by the sync in flight (it replaces `waiting` when it ends). */
  private syncWaiting = new Map<string, McpServerConfig>();
  /** The start prompts: each waiting definition asked about once (again after an explicit refresh). */
  private readonly prompts = new StartPrompts(
    (shown) => askToStart(shown, (p) => vscode.workspace.asRelativePath(p), consentUi),
    (shown) => this.startServers(shown),
  );

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly options: McpControllerOptions,
  ) {
    this.manager = new McpSyncManager(this.managerOptions());
    this.disposables.push(
      this.changed,
      toVscode(this.manager.onDidChangeStatus(() => this.changed.fire())),
      toVscode(this.manager.onDidChangeTools(() => this.changed.fire())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshIfStarted()),
    );
    for (const file of WORKSPACE_CONFIG_FILES) {
      const watcher = vscode.workspace.createFileSystemWatcher(`**/${file}`);
      const resync = (): void => this.refreshIfStarted();
      watcher.onDidChange(resync);
      watcher.onDidCreate(resync);
      watcher.onDidDelete(resync);
      this.disposables.push(watcher);
    }
  }

  /** Servers start when someone looks at them (the Tools view) or asks (a command, the agent). */
  ensureStarted(): void {
    if (!this.started) void this.refresh();
  }

  /** The servers after the first sync (starting it if nobody has yet). */
  async ready(): Promise<McpServerState[]> {
    if (!this.started) return this.refresh();
    await this.syncs.inFlight;
    return this.manager.servers;
  }

  /** After a config or setting change: re-sync, but never start servers nobody asked for. */
  refreshIfStarted(): void {
    if (this.started) void this.refresh();
  }

  /**
   * Re-reads configs and settings and syncs every server. Calls during a run coalesce into one more run
   * and get its result: the run in flight may have read the configs before the caller's change.
   */
  refresh(options: { askAgain?: boolean } = {}): Promise<McpServerState[]> {
    this.started = true;
    if (options.askAgain) this.prompts.forget();
    return this.syncs.run();
  }

  /** One sync: the manager takes the configs of now, syncs every server, and the prompts offer who waits. */
  private async sync(): Promise<McpServerState[]> {
    this.manager.update(this.managerOptions());
    this.syncWaiting = new Map();
    try {
      const states = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Context Desk: syncing MCP tools' },
        () => this.manager.syncAll(),
      );
      for (const e of this.manager.configErrors)
        this.options.logger.warn(`MCP config ${e.file}:${e.line}:${e.column}: ${e.message}`);
      this.options.logger.info(
        `MCP sync: ${states.map((s) => `${s.name}=${s.status}(${s.tools.length})`).join(', ') || 'no servers'}`,
      );
      this.waiting = this.syncWaiting;
      this.prompts.offer(this.waiting);
      return states;
    } finally {
      this.changed.fire();
    }
  }

  private managerOptions(): ConstructorParameters<typeof McpSyncManager>[0] {
    const folder = this.options.workspaceFolder();
    return {
      outDir: this.options.outDir(),
      openStore: this.options.openStore,
      allowStart: vscode.workspace.isTrusted,
      mayStart: (config) => this.mayStart(config, folder),
      ...(folder ? { workspaceFolder: folder } : {}),
      settingServers: this.options.settingServers(),
      syncDeadlineMs: Math.max(1, this.options.deadlineSeconds()) * 1000,
      resolveInput: (input) => this.resolveInput(input),
      vscodeTools: vscodeTools(),
      invokeVscodeTool: async (name, args, signal) => {
        const source = new vscode.CancellationTokenSource();
        signal?.addEventListener('abort', () => source.cancel());
        try {
          const result = await vscode.lm.invokeTool(
            name,
            { input: args, toolInvocationToken: undefined },
            source.token,
          );
          const text = result.content
            .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '[non-text part]'))
            .join('\n');
          return { isError: false, text, raw: result.content };
        } finally {
          source.dispose();
        }
      },
      logger: this.options.logger,
    };
  }

  private mayStart(config: McpServerConfig, folder: string | undefined): boolean {
    if (!definedByWorkspace(config, folder, this.options.workspaceSettingServerNames())) return true;
    if (this.options.startConsent.isAllowed(config)) return true;
    this.syncWaiting.set(consentKey(config), config);
    return false;
  }

  /** Servers the last sync left waiting for consent. */
  get waitingForConsent(): readonly McpServerConfig[] {
    return [...this.waiting.values()];
  }

  /**
   * Allows every server waiting now, as defined now, and syncs again: what Start does in a prompt that
   * names them all (the tests use it). The prompt itself allows only what it showed (`startServers`).
   */
  startWaitingServers(): Promise<McpServerState[]> {
    return this.startServers(this.waitingForConsent);
  }

  /** Allows exactly these definitions (a server since redefined is not among them) and syncs again. */
  async startServers(configs: readonly McpServerConfig[]): Promise<McpServerState[]> {
    await this.options.startConsent.allow(configs);
    this.options.logger.info(
      `MCP: allowed to start ${configs.map((c) => `"${visibleName(c.name)}" (${c.source})`).join(', ')}.`,
    );
    return this.refresh();
  }

  private inputQueue: Promise<unknown> = Promise.resolve();

  /** `${input:id}`: asked once, then kept in SecretStorage; servers sync in parallel, so prompts queue. */
  private resolveInput(input: McpInputDeclaration): Promise<string | undefined> {
    const next = this.inputQueue.then(() => this.askInput(input));
    this.inputQueue = next.catch(() => undefined);
    return next;
  }

  private async askInput(input: McpInputDeclaration): Promise<string | undefined> {
    // Per config file: a value given for one repository's server is never handed to another's that
    // happens to declare the same input id.
    const key = `mcp.input.${input.source}#${input.id}`;
    const stored = await this.secrets.get(key);
    if (stored !== undefined) return stored;
    const value = await vscode.window.showInputBox({
      title: `MCP server input: ${input.id} (${vscode.workspace.asRelativePath(input.source)})`,
      prompt: input.description ?? `Value for \${input:${input.id}}`,
      password: input.password ?? false,
      value: input.default ?? '',
      ignoreFocusOut: true,
    });
    if (value !== undefined) await this.secrets.store(key, value);
    return value;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    void this.manager.dispose();
  }
}

/** VS Code's tools minus its internal helpers (and Context Desk's own), which the agent is never offered. */
function vscodeTools(): VscodeToolInfo[] {
  return vscode.lm.tools
    .filter((t) => !isInternalVscodeTool(t.name))
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** The start prompt: a notification, and a modal dialog for the review that lists every server. */
const consentUi: ConsentUi = {
  notify: (message, items) => vscode.window.showWarningMessage(message, ...items),
  confirm: (message, detail, item) => vscode.window.showWarningMessage(message, { modal: true, detail }, item),
};

function toVscode(d: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => d.dispose());
}
