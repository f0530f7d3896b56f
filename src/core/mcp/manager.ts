// McpSyncManager: the one object the extension glue and the CLI use. It reads the configs, connects to
// every server (in parallel, each with its own timeouts, so one broken server affects no other), writes
// `<out>/mcp/<server>/...` and `<out>/mcp/INDEX.md`, re-syncs on `tools/list_changed`, reconnects with
// backoff after a lost connection, and closes everything on `dispose()`.
import * as path from 'node:path';
import { Emitter, type Event } from './events';
import { assignSafeNames } from './names';
import {
  DEFAULT_RECONNECT,
  disabledState,
  notStartedBecause,
  initialState,
  loadConfiguredServers,
  toolsFingerprint,
  lostState,
  unresolvedState,
  VSCODE_SERVER,
  vscodeServerState,
  type Live,
  type McpSyncManagerOptions,
} from './manager-options';
import { toCallResult } from './call-result';
import { resolveServerConfig, VariableError, withEnvFile } from './variables';
import { writeIndex, writeServerFolder } from './writer';
import type { McpCallResult, McpConfigError, McpInputDeclaration, McpServerState, VscodeToolInfo } from './types';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import { ContextStore } from '../store/context-store';
import { syncServerTools } from './server-sync';

export { DEFAULT_SYNC_DEADLINE_MS } from './server-sync';
export { VSCODE_SERVER, type McpSyncManagerOptions } from './manager-options';

/**
 * Syncs MCP servers' tool descriptions into per-server folders and keeps them current. Wired up by the
 * extension in `src/extension/mcp/mcpController.ts` (trust, inputs from secret storage, VS Code's own
 * tools, events to the tree view) and by `context-desk mcp` in `src/cli/commands/mcp.ts`.
 *
 * All methods are safe to call concurrently: syncs run one after another. A server's own failure never
 * throws; it becomes its status (`error`, `needs-auth`) with a message and a fix.
 */
export class McpSyncManager {
  private readonly statusEmitter = new Emitter<McpServerState>();
  private readonly toolsEmitter = new Emitter<McpServerState>();
  private readonly states = new Map<string, McpServerState>();
  private readonly live = new Map<string, Live>();
  private readonly inputCache = new Map<string, Promise<string | undefined>>();
  private errors: McpConfigError[] = [];
  private inputs: McpInputDeclaration[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private store: ContextStore | undefined;
  /** Why the last sync could not open its store (nothing was written), if it could not. */
  storeError: string | undefined;
  /** A SERVER.md was written after the last INDEX.md: INDEX.md must follow before the manager stops. */
  private indexStale = false;
  private readonly clock: Clock;
  private readonly logger: Logger;

  /** Fires when a server's status (or its message) changed. */
  readonly onDidChangeStatus: Event<McpServerState> = this.statusEmitter.event;
  /** Fires when a server's tool list or any tool's description changed. */
  readonly onDidChangeTools: Event<McpServerState> = this.toolsEmitter.event;

  constructor(private options: McpSyncManagerOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
  }

  /** `<store>/mcp`, or undefined when nothing is written. */
  get mcpDir(): string | undefined {
    if (this.options.outDir === undefined && !this.options.openStore) return undefined;
    const root = this.store?.root ?? this.options.outDir;
    return root === undefined ? undefined : path.join(root, 'mcp');
  }

  /** Opens (again, when the options changed) the store the files go to; undefined when none is usable. */
  private async openStore(): Promise<void> {
    const { outDir, openStore } = this.options;
    if (outDir === undefined && !openStore) {
      this.store = undefined;
      return;
    }
    try {
      this.store = openStore
        ? await openStore()
        : await ContextStore.open({ root: outDir!, allowOutsideWorkspace: true });
      this.storeError = undefined;
    } catch (e) {
      this.store = undefined;
      this.storeError = e instanceof Error ? e.message : String(e);
      this.logger.error(`MCP tool folders are not written: ${this.storeError}`);
    }
  }

  /** Every server's current state, in config order (`vscode` last). */
  get servers(): McpServerState[] {
    return [...this.states.values()];
  }

  /** Config problems found by the last sync (malformed files, bad entries), each with file and position. */
  get configErrors(): McpConfigError[] {
    return [...this.errors];
  }

  /** Changes options (trust, setting, files, VS Code tools); takes effect at the next `syncAll()`. */
  update(changes: Partial<McpSyncManagerOptions>): void {
    this.options = { ...this.options, ...changes };
  }

  /** Replaces VS Code's tools (after `vscode.lm.onDidChangeTools`) and rewrites only the `vscode` folder and INDEX.md. */
  setVscodeTools(tools: VscodeToolInfo[]): Promise<void> {
    this.options = { ...this.options, vscodeTools: tools };
    return this.enqueue(async () => {
      const prev = this.states.get(VSCODE_SERVER);
      if (!prev) return void (await this.doSyncAll());
      if (!this.store) await this.openStore();
      await this.publish(vscodeServerState(prev.folderName, tools, this.mcpDir, this.clock.now()));
      await this.writeIndexFile();
    });
  }

  /** Re-reads the configs, (re)connects where needed, lists every server's tools and writes the folders. */
  syncAll(): Promise<McpServerState[]> {
    return this.enqueue(() => this.doSyncAll());
  }

  /** Re-lists one server (reconnecting if needed) and rewrites its folder and INDEX.md. */
  syncServer(name: string): Promise<McpServerState | undefined> {
    return this.enqueue(async () => {
      const l = this.live.get(name);
      if (!l) return this.states.get(name);
      await this.syncOne(name, l);
      await this.writeIndexFile();
      return this.states.get(name);
    });
  }

  /** The stored description of one tool, or undefined if the server or tool is unknown. */
  getTool(server: string, tool: string): McpServerState['tools'][number] | undefined {
    return this.states.get(server)?.tools.find((t) => t.name === tool);
  }

  /** Calls a tool on a connected server (no validation here: agent-tools validates first). */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpCallResult> {
    if (server === VSCODE_SERVER && this.options.vscodeTools) {
      if (!this.options.invokeVscodeTool) throw new Error('VS Code tools cannot be called from here');
      return this.options.invokeVscodeTool(tool, args, signal);
    }
    const conn = this.live.get(server)?.connection;
    if (!conn)
      throw new Error(
        `the server '${server}' is not connected (status: ${this.states.get(server)?.status ?? 'unknown'})`,
      );
    const raw = await conn.callTool(tool, args, this.options.callTimeoutMs ?? 60_000, signal);
    return toCallResult(raw);
  }

  /**
   * Closes every connection (stdio children end) and stops reconnect timers. The manager is unusable
   * after. Nothing is written after this except, when a SERVER.md changed since, the INDEX.md that
   * matches it: the folders never say "reconnecting" for a manager that stopped.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((l) => this.closeLive(l)));
    // A connect in flight closes its own connection when it sees `disposed`; wait for it.
    await this.queue;
    if (this.indexStale) await this.writeIndexFile(true);
    this.statusEmitter.dispose();
    this.toolsEmitter.dispose();
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async closeLive(l: Live): Promise<void> {
    clearTimeout(l.timer);
    const c = l.connection;
    l.connection = undefined;
    await c?.close();
  }

  private async doSyncAll(): Promise<McpServerState[]> {
    if (this.disposed) return [];
    await this.openStore();
    const { servers, errors, inputs } = await loadConfiguredServers(this.options);
    this.errors = errors;
    this.inputs = inputs;
    const names = servers.map((s) => s.name).concat(this.options.vscodeTools ? [VSCODE_SERVER] : []);
    const folders = assignSafeNames(names, ['index.md']);
    // Servers that are gone: close them and forget them.
    for (const [name, l] of this.live) {
      if (!servers.some((s) => s.name === name)) {
        this.live.delete(name);
        await this.closeLive(l);
      }
    }
    for (const name of [...this.states.keys()]) if (!names.includes(name)) this.states.delete(name);
    const jobs = servers.map(async (declared) => {
      const base = initialState(declared, folders.get(declared.name)!);
      let config = declared;
      let why = notStartedBecause(config, { allowStart: this.options.allowStart });
      if (!why) {
        // The envFile is read once, before consent: what the prompt shows is what the server gets.
        try {
          config = await withEnvFile(config, this.variableContext());
        } catch (e) {
          if (!(e instanceof VariableError)) throw e;
          return this.publish(unresolvedState(base, config, e, this.clock.now()));
        }
        why = notStartedBecause(config, this.options);
      }
      if (why) {
        await this.closeLive(this.live.get(config.name) ?? { key: '', config, secrets: [], attempts: 0 });
        this.live.delete(config.name);
        return this.publish(disabledState(base, config, this.clock.now(), why));
      }
      let resolved;
      try {
        resolved = await resolveServerConfig(config, this.variableContext(), this.inputCache);
      } catch (e) {
        if (!(e instanceof VariableError)) throw e;
        return this.publish(unresolvedState(base, config, e, this.clock.now()));
      }
      const key = JSON.stringify(resolved.config);
      let l = this.live.get(config.name);
      if (l && l.key !== key) {
        await this.closeLive(l);
        l = undefined;
      }
      if (!l) {
        l = { key, config: resolved.config, secrets: resolved.secrets, attempts: 0 };
        this.live.set(config.name, l);
      }
      if (!this.states.has(config.name))
        this.states.set(config.name, { ...base, status: 'error', message: 'Not synced yet.' });
      return this.syncOne(config.name, l, base);
    });
    await Promise.all(jobs);
    if (this.options.vscodeTools)
      await this.publish(
        vscodeServerState(folders.get(VSCODE_SERVER)!, this.options.vscodeTools ?? [], this.mcpDir, this.clock.now()),
      );
    // Keep config order; `vscode` last.
    const ordered = names.map((n) => this.states.get(n)).filter((s): s is McpServerState => s !== undefined);
    this.states.clear();
    for (const s of ordered) this.states.set(s.name, s);
    await this.writeIndexFile();
    return this.servers;
  }

  private variableContext() {
    return {
      workspaceFolder: this.options.workspaceFolder,
      home: this.options.home,
      env: this.options.env ?? process.env,
      inputs: this.inputs,
      resolveInput: this.options.resolveInput,
    };
  }

  /** Connects if needed, lists tools, publishes the state (server-sync.ts). */
  private async syncOne(name: string, l: Live, baseIn?: McpServerState): Promise<void> {
    const prev = this.states.get(name);
    const base = baseIn ?? (prev ? { ...prev } : undefined);
    if (!base || this.disposed) return;
    await syncServerTools(name, l, base, {
      options: () => this.options,
      mcpDir: this.mcpDir,
      clock: this.clock,
      logger: this.logger,
      current: () => !this.disposed && this.live.get(name) === l,
      onToolsChanged: () => this.onToolsChanged(name, l),
      onLost: () => this.onLost(name, l),
      publish: (state) => this.publish(state),
    });
  }

  /** A burst of list_changed notifications costs one re-list: later ones wait for the queued one. */
  private onToolsChanged(name: string, l: Live): void {
    if (this.disposed || this.live.get(name) !== l || l.resyncQueued) return;
    l.resyncQueued = true;
    void this.enqueue(async () => {
      l.resyncQueued = false;
      if (this.live.get(name) !== l) return;
      await this.syncOne(name, l);
      await this.writeIndexFile();
    });
  }

  /** A connected server went away: show it, then reconnect with exponential backoff. */
  private onLost(name: string, l: Live): void {
    const prev = this.states.get(name);
    if (this.disposed || this.live.get(name) !== l || !prev) return;
    l.connection = undefined;
    if (this.options.keepAlive === false) return;
    l.attempts++;
    const { state, delayMs } = lostState(prev, l.attempts, this.options.reconnect ?? DEFAULT_RECONNECT);
    void this.enqueue(() => this.publish(state).then(() => this.writeIndexFile()));
    if (delayMs === undefined) return;
    l.timer = setTimeout(() => void this.syncServer(name), delayMs);
    l.timer.unref();
  }

  /** Stores a state, writes its folder, fires events when status or tools changed. */
  private async publish(state: McpServerState): Promise<void> {
    const prev = this.states.get(state.name);
    this.states.set(state.name, state);
    const mcpDir = this.mcpDir;
    if (this.store && mcpDir && !this.disposed) {
      try {
        this.indexStale = true;
        await writeServerFolder(this.store.writer, mcpDir, state);
      } catch (e) {
        this.logger.error(
          `writing the folder of MCP server ${state.name} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
    if (!prev || prev.status !== state.status || prev.message !== state.message) this.statusEmitter.fire(state);
    if (!prev || toolsFingerprint(prev) !== toolsFingerprint(state)) this.toolsEmitter.fire(state);
  }

  private async writeIndexFile(final = false): Promise<void> {
    const mcpDir = this.mcpDir;
    if (!this.store || !mcpDir || (this.disposed && !final)) return;
    try {
      this.indexStale = false;
      await writeIndex(this.store.writer, mcpDir, this.servers);
    } catch (e) {
      this.logger.error(`writing INDEX.md failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
