// The host side of the Agent panel: owns the chat view model and the running agent session, builds the
// provider, tools and stores from settings, and answers the panel's requests. Loaded lazily (features).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentSession } from '../../core/agent/session';
import { ToolRegistry } from '../../core/agent/tool-registry';
import { createWorkspaceTools, type CommandPort, type EditFilePort } from '../../core/agent/tools';
import type { AgentTool } from '../../core/agent/tool-registry';
import { MCP_CALL_TOOL, MCP_DESCRIBE_TOOL, mcpCall, mcpDescribe, type McpToolHost } from '../../core/mcp';
import { createTokenizer, setTiktokenWasmPath } from '../../core/tokens';
import { ContextStore } from '../../core/store/context-store';
import { ToolOutputStore } from '../../core/store/tool-outputs';
import { HistoryWriter, listSessions, loadSession } from '../../core/store/history';
import { sessionStateFromHistory } from '../../core/agent/resume';
import { isStrategyName } from '../../core/strategies/types';
import type { Logger } from '../../core/ports';
import type { SessionState } from '../../core/agent/session-state';
import type { ChatPatch, ChatSnapshot } from '../../protocol/chat';
import { ChatModel, emptyChat, itemsFromMessages } from './chatModel';
import { ApprovalBroker } from './approvals';
import { SECTION, type Settings } from '../settings';
import { createProvider, modelFields, providerKind } from './providers';

/** What MCP and skills add to a session: the MCP host, static prompt lines, folders the agent may read. */
export interface Extras {
  mcp?: McpToolHost;
  prompt: string;
  readRoots?: readonly string[];
}

export interface ChatControllerDeps {
  extensionPath: string;
  secrets: vscode.SecretStorage;
  settings: () => Settings;
  storeRoot: () => { root: string; workspaceFolder?: string };
  /** VS Code's side of edit_file and run_command. */
  hostPorts: (workspaceRoot: string, approvals: ApprovalBroker) => { edit: EditFilePort; command: CommandPort };
  /** MCP tools and skills for the agent: the host for mcp_describe / mcp_call, and the static prompt lines. */
  extras?: () => Promise<Extras>;
  post: (patches: ChatPatch[]) => void;
  postSnapshot: (snapshot: ChatSnapshot) => void;
  logger: Logger;
}

export class ChatController implements vscode.Disposable {
  private model: ChatModel;
  private session: AgentSession | undefined;
  /** A conversation to continue when the next session is built (after a strategy or model change). */
  private carryOver: SessionState | undefined;
  private history: { writer: HistoryWriter; written: number; store: ContextStore } | undefined;
  private running: AbortController | undefined;
  readonly approvals: ApprovalBroker;

  constructor(private readonly d: ChatControllerDeps) {
    setTiktokenWasmPath(path.join(d.extensionPath, 'dist', 'tiktoken_bg.wasm'));
    this.approvals = new ApprovalBroker((patches) => d.post(this.model.patch(patches)));
    this.model = new ChatModel(this.fresh());
    void this.refreshPastSessions();
  }

  get snapshot(): ChatSnapshot {
    return this.model.snapshot;
  }

  /** A new chat: the running one (if any) is stopped first. */
  newChat(): string {
    this.stop();
    this.session = undefined;
    this.carryOver = undefined;
    this.tokenizer?.release(); // the closed conversation's encoding and cached counts go
    void this.history?.writer.close();
    this.history = undefined;
    const pastSessions = this.model.snapshot.pastSessions;
    this.model = new ChatModel({ ...this.fresh(), pastSessions });
    this.d.postSnapshot(this.model.snapshot);
    return this.model.snapshot.sessionId;
  }

  setStrategy(strategy: string): string {
    if (!isStrategyName(strategy)) throw new Error(`Unknown strategy '${strategy}'`);
    if (this.running) throw new Error('Stop the agent before changing the strategy');
    void vscode.workspace.getConfiguration(SECTION).update('strategy', strategy, vscode.ConfigurationTarget.Global);
    this.rebuildSession();
    this.d.postSnapshot((this.model = new ChatModel({ ...this.model.snapshot, strategy })).snapshot);
    return strategy;
  }

  /** Switches the model; the conversation goes on with the new one from the next message. */
  async setModel(model: string): Promise<string> {
    if (this.running) throw new Error('Stop the agent before changing the model');
    await vscode.workspace.getConfiguration(SECTION).update('agent.model', model, vscode.ConfigurationTarget.Global);
    this.settingsChanged();
    return model;
  }

  /**
   * Agent settings changed (provider, endpoint, model, budget...): the next message uses them, going on
   * with this conversation; the panel's model label and setup hint follow at once.
   */
  settingsChanged(): void {
    if (!this.running) this.rebuildSession();
    const { model: label, setupHint } = modelFields(this.d.settings());
    const { model: _old, setupHint: _hint, ...rest } = this.model.snapshot;
    this.model = new ChatModel({ ...rest, ...(label ? { model: label } : {}), ...(setupHint ? { setupHint } : {}) });
    this.d.postSnapshot(this.model.snapshot);
  }

  /**
   * The next message builds a new session (new strategy, model or provider) that continues this
   * conversation: its messages and accounting carry over, the strategy's own state starts afresh.
   */
  private rebuildSession(): void {
    if (this.session) this.carryOver = this.session.state();
    this.session = undefined;
  }

  stop(): boolean {
    if (!this.running) return false;
    this.running.abort();
    this.approvals.denyAll();
    return true;
  }

  /** Starts a run in the background; the panel follows it through patches. */
  send(text: string): { accepted: boolean; reason?: string } {
    if (this.running) return { accepted: false, reason: 'The agent is still working; stop it first.' };
    const hint = modelFields(this.d.settings()).setupHint;
    if (hint) {
      this.d.post(this.model.notice('warning', hint, { label: 'Configure', action: 'configure' }));
      return { accepted: false, reason: hint };
    }
    void this.run(text);
    return { accepted: true };
  }

  private async run(text: string): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    this.d.post(this.model.userMessage(text, Date.now()));
    try {
      const session = await this.ensureSession();
      const off = session.on((e) => {
        this.d.post(this.model.event(e));
        if (e.type === 'call-finished' || e.type === 'done' || e.type === 'stopped') void this.writeHistory(session);
      });
      try {
        await session.send(text, controller.signal);
      } finally {
        off();
        await this.writeHistory(session);
        void this.refreshPastSessions();
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.d.logger.error(`Agent run failed: ${message}`);
      this.d.post([
        ...this.model.notice('error', message, { label: 'Show Log', action: 'showLog' }),
        ...this.model.patch([{ op: 'status', status: 'error' }]),
      ]);
    } finally {
      this.running = undefined;
    }
  }

  /** Appends the messages the history file does not have yet (full text, as the agent kept them). */
  private historyQueue: Promise<void> = Promise.resolve();
  private writeHistory(session: AgentSession): Promise<void> {
    this.historyQueue = this.historyQueue
      .then(async () => {
        if (!this.history) return;
        const messages = session.state().messages;
        for (const m of messages.slice(this.history.written)) await this.history.writer.append(m);
        this.history.written = messages.length;
      })
      .catch((e: unknown) => this.d.logger.error(`Writing the chat history failed: ${String(e)}`));
    return this.historyQueue;
  }

  /** Past sessions from the history files, newest first. */
  async refreshPastSessions(): Promise<void> {
    try {
      const store = await this.openStore();
      const sessions = (await listSessions(store)).slice(0, 30).map((e) => ({
        id: e.name,
        title: new Date(e.modifiedMs).toLocaleString(),
        createdAt: e.modifiedMs,
        turns: 0,
      }));
      this.d.post(this.model.patch([{ op: 'pastSessions', sessions }]));
    } catch (e) {
      this.d.logger.warn(`Listing past sessions failed: ${String(e)}`);
    }
  }

  /** Opens the readable transcript of the session in the panel (or of `id`). */
  async openTranscript(id: string = this.model.snapshot.sessionId): Promise<boolean> {
    const store = await this.openStore();
    const file = store.historyPaths(id).markdown;
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    return true;
  }

  /**
   * Continues a past session from its history file: the panel shows the conversation again and the next
   * message goes on from it. Cost and budget start afresh (the history keeps messages, not accounting).
   */
  async resumeSession(id: string): Promise<boolean> {
    if (this.running) throw new Error('Stop the agent before opening another session');
    const store = await this.openStore();
    const { records, badLines, tornTail } = await loadSession(store, id);
    const s = this.d.settings();
    let state: SessionState;
    try {
      state = sessionStateFromHistory(records, {
        id,
        provider: providerKind(s['agent.provider']),
        model: s['agent.model'],
        strategy: isStrategyName(s.strategy) ? s.strategy : 'cache-aware',
        now: Date.now(),
      });
    } catch (e) {
      this.d.post(this.model.notice('error', e instanceof Error ? e.message : String(e)));
      return false;
    }
    this.newChat();
    const base = this.model.snapshot;
    this.model = new ChatModel({ ...base, sessionId: id, items: itemsFromMessages(id, state.messages, Date.now()) });
    this.carryOver = state;
    const damaged = badLines.length + (tornTail ? 1 : 0);
    const skipped = damaged ? ` ${damaged} damaged line(s) of the file were skipped.` : '';
    this.model.notice(
      'info',
      `Resumed from ${store.displayPath(store.historyPaths(id).jsonl)} (${state.messages.length} messages). Cost and budget count from here.${skipped}`,
      { label: 'Open Transcript', action: 'openTranscript' },
    );
    this.d.postSnapshot(this.model.snapshot);
    return true;
  }

  private async openStore(): Promise<ContextStore> {
    const { root, workspaceFolder } = this.d.storeRoot();
    return ContextStore.open({ root, ...(workspaceFolder ? { workspaceRoot: workspaceFolder } : {}) });
  }

  /** One tokenizer for every session of this panel: a new one only when the setting names another. */
  private tokenizer: ReturnType<typeof createTokenizer> | undefined;
  private tokenizerFor(name: 'o200k' | 'cl100k' | 'chars4'): ReturnType<typeof createTokenizer> {
    if (this.tokenizer?.name !== name) {
      this.tokenizer?.release();
      this.tokenizer = createTokenizer(name);
    }
    return this.tokenizer;
  }

  private async ensureSession(): Promise<AgentSession> {
    if (this.session) return this.session;
    const s = this.d.settings();
    const { root, workspaceFolder } = this.d.storeRoot();
    const store = await ContextStore.open({ root, ...(workspaceFolder ? { workspaceRoot: workspaceFolder } : {}) });
    // Size caps: the oldest files of a full folder go before a new session adds more.
    void store.enforceCaps().catch((e: unknown) => this.d.logger.warn(`Store size caps: ${String(e)}`));
    const tokenizer = this.tokenizerFor(s.tokenizer === 'cl100k' || s.tokenizer === 'chars4' ? s.tokenizer : 'o200k');
    const extras = await this.loadExtras();
    const tools = new ToolRegistry([
      ...(workspaceFolder
        ? createWorkspaceTools({
            workspaceRoot: workspaceFolder,
            storeRoot: store.root,
            ...(extras.readRoots?.length ? { readOnlyRoots: extras.readRoots } : {}),
            appRoot: vscode.env.appRoot,
            ...this.d.hostPorts(workspaceFolder, this.approvals),
          })
        : []),
      ...(extras.mcp ? mcpAgentTools(extras.mcp) : []),
    ]);
    const budgetLimit = s['agent.budgetTokens'];
    const provider = await createProvider(s, this.d.secrets);
    const restoring = this.carryOver !== undefined;
    this.session = new AgentSession({
      provider,
      model: s['agent.model'],
      ...(s['agent.summaryModel'] ? { summaryModel: { provider, model: s['agent.summaryModel'] } } : {}),
      tools,
      tokenizer,
      systemPrompt: [
        systemPrompt(workspaceFolder, store, store.historyPaths(this.model.snapshot.sessionId)),
        extras.prompt,
      ]
        .filter(Boolean)
        .join('\n\n'),
      strategy: isStrategyName(s.strategy) ? s.strategy : 'cache-aware',
      strategyOptions: {
        window: s.maskingWindow,
        cachedPrice: s.cachedInputPrice,
        contextWindow: s['agent.contextWindow'],
      },
      longOutput: new ToolOutputStore(store, tokenizer),
      ...(budgetLimit > 0
        ? {
            budget: {
              session: { limit: budgetLimit, mode: s['agent.budgetMode'] as 'hard' | 'soft' | 'approval' },
              approval: this.approvals,
            },
          }
        : {}),
      maxTurns: s['agent.maxTurns'],
      logger: this.d.logger,
      ...(this.carryOver ? { restore: this.carryOver } : {}),
    });
    this.carryOver = undefined;
    // A continued conversation keeps appending to the history file it already has.
    this.history ??= {
      writer: await HistoryWriter.open(store, this.model.snapshot.sessionId, { tokenizer }),
      // A resumed session's messages are in its file already.
      written: restoring ? this.session.state().messages.length : 0,
      store,
    };
    return this.session;
  }

  /** MCP and skills are optional: a failure there is logged and the agent runs without them. */
  private async loadExtras(): Promise<Extras> {
    try {
      return (await this.d.extras?.()) ?? { prompt: '' };
    } catch (e) {
      this.d.logger.warn(`MCP tools and skills are not available to the agent: ${String(e)}`);
      return { prompt: '' };
    }
  }

  private fresh(): ChatSnapshot {
    const s = this.d.settings();
    const snapshot = emptyChat(
      `chat-${Date.now().toString(36)}`,
      s.strategy,
      s['agent.contextWindow'],
      s.tokenizer === 'chars4',
    );
    const { model, setupHint } = modelFields(this.d.settings());
    if (providerKind(s['agent.provider']) === 'vscode-lm') void this.refreshLanguageModels();
    return {
      ...snapshot,
      ...(model ? { model } : {}),
      models: s['agent.model'] ? [s['agent.model']] : [],
      ...(setupHint ? { setupHint } : {}),
    };
  }

  /** The picker offers every chat model VS Code has (vscode-lm only). */
  private async refreshLanguageModels(): Promise<void> {
    try {
      const ids = (await vscode.lm.selectChatModels()).map((m) => m.id);
      const current = this.d.settings()['agent.model'];
      const models = [...new Set([...(current ? [current] : []), ...ids])];
      this.d.post(this.model.patch([{ op: 'models', models }]));
    } catch (e) {
      this.d.logger.warn(`Listing VS Code language models failed: ${String(e)}`);
    }
  }

  dispose(): void {
    this.stop();
    this.tokenizer?.dispose();
  }
}

function systemPrompt(
  workspaceFolder: string | undefined,
  store: ContextStore,
  history: { jsonl: string; markdown: string },
): string {
  const storeRel = workspaceFolder ? path.relative(workspaceFolder, store.root) || '.' : store.root;
  const historyRel = store.displayPath(history.markdown);
  return [
    "You are a coding agent working in the user's VS Code workspace. Use the tools to read, search and change files and to run commands.",
    `Long tool outputs, terminal logs and chat history are kept as files under ${storeRel}/. When a result says "Full output ... - read, tail or grep it", or an old observation reads "Old environment output: (N lines omitted; full text: PATH)", read, tail or grep that file instead of re-running the command.`,
    `This conversation is also written to ${historyRel}: if a summary left something out, grep it there.`,
    'Be concise. When the task is done, answer without calling a tool.',
  ].join('\n');
}

/** mcp_describe and mcp_call as agent tools over the synced servers. */
function mcpAgentTools(host: McpToolHost): AgentTool[] {
  return [
    { ...MCP_DESCRIBE_TOOL, run: (args) => mcpDescribe(host, args) },
    { ...MCP_CALL_TOOL, run: (args, ctx) => mcpCall(host, args, ctx.signal) },
  ];
}
