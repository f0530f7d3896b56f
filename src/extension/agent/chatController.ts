// The host side of the Agent panel: owns the chat view model and the running agent session, and answers
// the panel's requests (send, stop, new chat, resume, pickers). Loaded lazily (features).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../core/agent/session';
import { setTiktokenWasmPath } from '../../core/tokens';
import { PanelTokenizer } from './panelTokenizer';
import { isStrategyName } from '../../core/strategies/types';
import type { SessionState } from '../../core/agent/session-state';
import type { ChatPatch, ChatSnapshot } from '../../protocol/chat';
import { ChatModel } from './chatModel';
import { chatUnderSettings, freshChat, languageModelIds, listsLanguageModels } from './chatSnapshots';
import { resumedView } from './resumedChat';
import { openPastSession, showTranscript, type PastRecords } from './pastOpening';
import { ApprovalBroker } from './approvals';
import { SECTION, pickerNotice } from '../settings';
import { updateWhereSet } from '../settingsScope';
import { modelFields } from './providers';
import { buildSession, liveSettings, liveUpdate, optionalExtras } from './sessionFactory';
import { HistorySink, openOwnHistory, type BuiltSession, type SessionHistory } from './sessionHistory';
import type { ChatControllerDeps } from './chatControllerDeps';
import { listPastSessions } from './pastSessions';
import { WrittenSessions } from './writtenSessions';
import { AfterRun, LEFT_UNSENT, OPENING, WAITING_NOTICE } from './afterRun';
import { currentTurnLimitScope } from './turnLimitSetting';

export type { Extras } from './sessionFactory';
export type { ChatControllerDeps } from './chatControllerDeps';

export class ChatController implements vscode.Disposable {
  private model: ChatModel;
  private session: AgentSession | undefined;
  /** A conversation to continue when the next session is built (after a strategy or model change). */
  private carryOver: SessionState | undefined;
  private history: SessionHistory | undefined;
  /** The history file's records of a resumed session (their indices and mask records). */
  private resumed: { records: PastRecords } | undefined;
  private running: AbortController | undefined;
  /** Settings changed during a run that only a new session takes up (provider, model): after the run. */
  private rebuildAfterRun = false;
  /** Settles when the current run (if any) has finished, including its last history appends. */
  private runDone: Promise<void> = Promise.resolve();
  /** Settles when the history file of the chat left last has all its writes (see `newChat`). */
  private closing: Promise<void> = Promise.resolve();
  private readonly written: WrittenSessions;
  /** A message sent while a stopped run winds down: sent when it has ended. */
  private readonly afterRun = new AfterRun();
  /** Past sessions being opened: a message sent meanwhile would go to the chat the opening replaces. */
  private opening = 0;
  readonly approvals: ApprovalBroker;

  constructor(private readonly d: ChatControllerDeps) {
    setTiktokenWasmPath(path.join(d.extensionPath, 'dist', 'tiktoken_bg.wasm'));
    this.approvals = new ApprovalBroker((patches) => d.post(this.model.patch(patches)));
    this.written = new WrittenSessions(d.state);
    this.model = this.chatModel(this.fresh());
    void this.refreshPastSessions();
  }

  get snapshot(): ChatSnapshot {
    return this.model.snapshot;
  }

  /** The view model, with the model's price when it is known (money beside units). */
  private chatModel(snapshot: ChatSnapshot): ChatModel {
    const money = liveSettings(this.d.settings()).pricing.money;
    return new ChatModel(snapshot, { ...(money ? { money } : {}), turnLimitScope: currentTurnLimitScope });
  }

  /** Resolves once the run and the closing of earlier conversations are over (their files written). */
  whenSettled(): Promise<void> {
    return this.runDone.then(() => this.closing);
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** A new chat: the running one (if any) is stopped first. */
  newChat(): string {
    this.stop();
    // A message waiting for the stopped run was typed in this conversation: it never moves to the new one.
    const unsent = this.afterRun.take();
    if (unsent !== undefined) this.d.keepWaiting?.(undefined);
    this.session = undefined;
    this.carryOver = undefined;
    this.resumed = undefined;
    // The stopped run still appends its last messages: close its history file only after them, then
    // let the closed conversation's encoding and cached counts go (panelTokenizer.ts).
    const old = this.history;
    this.history = undefined;
    const retired = this.tokenizer.retire();
    this.closing = Promise.all([this.closing, this.runDone.then(() => old?.close())])
      .catch((e: unknown) => this.d.logger.error(`Closing the chat history failed: ${String(e)}`))
      .then(() => retired?.release());
    const pastSessions = this.model.snapshot.pastSessions;
    this.model = this.chatModel({ ...this.fresh(), pastSessions });
    this.d.postSnapshot(this.model.snapshot);
    if (unsent !== undefined) this.d.post(this.model.unsent(unsent, LEFT_UNSENT, Date.now()));
    return this.model.snapshot.sessionId;
  }

  /** Switches the strategy: a running agent takes it up from its next call, else the next message. */
  async setStrategy(strategy: string): Promise<string> {
    if (!isStrategyName(strategy)) throw new Error(`Unknown strategy '${strategy}'`);
    await this.writeSetting('strategy', strategy);
    this.settingsChanged();
    return strategy;
  }

  /** Switches the model; the conversation goes on with the new one from the next message. */
  async setModel(model: string): Promise<string> {
    await this.writeSetting('agent.model', model);
    this.settingsChanged();
    return model;
  }

  /** A picker's choice goes where the setting is set now, so it takes effect; the panel says where. */
  private async writeSetting(key: string, value: string): Promise<void> {
    const { scope, effective } = await updateWhereSet(key, value);
    const notice = pickerNotice(`${SECTION}.${key}`, value, scope, effective);
    if (notice) this.d.post(this.model.notice(effective ? 'info' : 'warning', notice));
  }

  /**
   * Agent settings changed (provider, endpoint, model, budget...): the next message uses them, going on
   * with this conversation; the panel's model label and setup state follow at once.
   */
  settingsChanged(): void {
    const s = this.d.settings();
    if (!this.running) this.rebuildSession();
    else {
      // The run takes up strategy, tokenizer, window, budget and prices from its next model call.
      if (this.session) this.takeUpLive(this.session);
      this.rebuildAfterRun = true;
    }
    this.model = this.chatModel(chatUnderSettings(this.model.snapshot, s));
    this.d.postSnapshot(this.model.snapshot);
    if (listsLanguageModels(s)) void this.refreshLanguageModels();
  }

  /** Gives a session the strategy, tokenizer, window, budget and prices the settings hold now. */
  private takeUpLive(session: AgentSession): void {
    const warn = (message: string): void => this.d.logger.warn(message);
    session.reconfigure(liveUpdate(this.d.settings(), (name) => this.tokenizer.for(name), warn));
  }

  /**
   * The next message builds a new session (new strategy, model or provider) that continues this
   * conversation: its messages and accounting carry over, and so does the strategy's own state (its
   * checkpoint, its mask boundary) when the strategy stays the same; another strategy starts afresh.
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

  /** Starts a run in the background; the panel follows it through patches. Refused runs keep the text. */
  send(text: string): { accepted: boolean; reason?: string; setup?: boolean } {
    if (text.trim() === '') return { accepted: false, reason: 'The message is empty.' };
    const { setup } = modelFields(this.d.settings());
    if (!setup.ready) return { accepted: false, reason: setup.hint ?? 'Set up a model first.', setup: true };
    if (this.opening > 0) return { accepted: false, reason: OPENING };
    if (this.running) {
      const ending = { stopped: this.running.signal.aborted, answered: this.model.snapshot.status !== 'running' };
      const r = this.afterRun.offer(text, ending);
      if (r.accepted) this.d.keepWaiting?.(text);
      if (r.accepted && ending.stopped) this.d.post(this.model.notice('info', WAITING_NOTICE, undefined, true));
      return r;
    }
    this.runDone = this.run(text);
    return { accepted: true };
  }

  private async run(text: string): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    this.d.onRunning?.(true);
    this.d.post(this.model.userMessage(text, Date.now()));
    // After New Chat the stopped run still ends (tool results, "stopped"): not in the new chat's view.
    const chat = this.model.snapshot.sessionId;
    const show = (patches: () => ChatPatch[]): void => {
      if (this.model.snapshot.sessionId === chat) this.d.post(patches());
    };
    let session: AgentSession | undefined;
    let history: SessionHistory | undefined;
    let own = true;
    try {
      ({ session, history, own } = await this.ensureSession(chat));
      // Settings changed while it was built (MCP servers starting) reach it too, not only the next message.
      if (this.rebuildAfterRun) this.takeUpLive(session);
      const running = session;
      const off = session.on((e) => {
        show(() => this.model.event(e));
        if (e.type === 'context-prepared' && e.masked.length > 0) void history?.masked(e.masked);
        if (e.type === 'done' || e.type === 'stopped') void history?.sync(running.messages);
      });
      try {
        await session.send(text, controller.signal);
      } finally {
        off();
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.d.logger.error(`Agent run failed: ${message}`);
      show(() => [
        ...this.model.patch([{ op: 'activity', text: undefined }]),
        // No session took the message (no key, no store): it is marked not sent and its text goes back
        // in an empty box; else it would look sent, and the next message would go on without it.
        ...(session ? [] : this.model.setAside(text)),
        ...this.model.notice('error', message, { label: 'Open setup', action: 'configure' }, true),
        ...this.model.patch([{ op: 'status', status: 'error' }]),
      ]);
    } finally {
      // The run is over once the status says so: the bookkeeping below does not hold up the next one.
      this.runOver(controller);
    }
    if (!session) return;
    await history?.sync(session.messages);
    if (!own) await history?.close();
    void this.refreshPastSessions();
  }

  /** The run is over for the user; settings that need a new session take effect now. */
  private runOver(controller: AbortController): void {
    if (this.running !== controller) return;
    this.running = undefined;
    this.d.onRunning?.(false);
    if (this.rebuildAfterRun) this.rebuildSession();
    this.rebuildAfterRun = false;
    const next = this.afterRun.take();
    if (next === undefined) return;
    this.d.keepWaiting?.(undefined);
    const previous = this.runDone;
    this.runDone = this.run(next).then(() => previous);
  }

  /** Past sessions from the history files, newest first. */
  async refreshPastSessions(): Promise<number> {
    try {
      const sessions = await listPastSessions(
        await this.d.openStore(),
        (id, identity) => this.written.has(id, identity),
        (id) => this.written.continued(id),
      );
      this.d.post(this.model.patch([{ op: 'pastSessions', sessions }]));
      return sessions.length;
    } catch (e) {
      this.d.logger.warn(`Listing past sessions failed: ${String(e)}`);
      return 0;
    }
  }

  /**
   * Opens the readable transcript of the session in the panel (or of `id`). One that came with a
   * repository may be a link: it is refused (the panel says why), never followed into an editor.
   */
  async openTranscript(id: string = this.model.snapshot.sessionId): Promise<boolean> {
    const error = (message: string): void => this.d.post(this.model.notice('error', message, undefined, true));
    return showTranscript(await this.d.openStore(), id, error, this.d.showStoreFile);
  }

  /**
   * Continues a past session from its history file: the panel shows the conversation again (with what
   * was masked and the links to stored outputs) and the next message goes on from it.
   */
  async resumeSession(id: string): Promise<boolean> {
    if (this.running) throw new Error('Stop the agent before opening another session');
    this.opening++;
    try {
      return await this.openPast(id);
    } finally {
      this.opening--;
    }
  }

  private async openPast(id: string): Promise<boolean> {
    // Read the file once our own writes are in: the last run's masks, and its identity as ours.
    await this.runDone.then(() => Promise.all([this.history?.flush(), this.closing]));
    const store = await this.d.openStore();
    const error = (message: string): void => this.d.post(this.model.notice('error', message, undefined, true));
    const opened = await openPastSession(store, id, this.written, this.d.settings(), error);
    if (!opened) return false;
    const { into, foreign, past, records } = opened;
    this.newChat();
    const shown = (s: string): string => store.displayPath(store.historyPaths(s).jsonl);
    const view = resumedView(this.model.snapshot, into, past, shown(id), foreign || this.written.continued(id));
    this.model = this.chatModel(view.snapshot);
    this.carryOver = past.state;
    this.resumed = { records };
    const notice = foreign
      ? `${view.notice} It goes on in ${shown(into)}; the files it came in are left as they were.`
      : view.notice;
    this.model.notice('info', notice, { label: 'Open Transcript', action: 'openTranscript' });
    this.d.postSnapshot(this.model.snapshot);
    return true;
  }

  private readonly tokenizer = new PanelTokenizer();

  /** Chat `sessionId`'s session and history file; New Chat while they are built leaves them to the run. */
  private async ensureSession(sessionId: string): Promise<BuiltSession> {
    if (this.session && this.history) return { session: this.session, history: this.history, own: true };
    const existing = this.history; // a continued conversation keeps appending to the file it already has
    const { workspaceFolder } = this.d.storeRoot();
    const store = await this.d.openStore();
    const restoring = this.carryOver;
    const settings = this.d.settings();
    const tokenizer = this.tokenizer.for(liveSettings(settings).tokenizer);
    const sink = new HistorySink();
    const session = await buildSession(
      {
        secrets: this.d.secrets,
        logger: this.d.logger,
        hostPorts: this.d.hostPorts,
        ...(this.d.mcpApproval ? { mcpApproval: this.d.mcpApproval(this.approvals) } : {}),
        approvals: this.approvals,
        extras: () => optionalExtras(this.d.extras, this.d.logger),
      },
      {
        settings,
        tokenizer,
        store,
        workspaceFolder,
        sessionId,
        ...(restoring ? { restore: restoring } : {}),
        // Records and tool results go to this session's history file (not a later chat's).
        onCall: sink.onCall,
        onSummaryCall: sink.onSummaryCall,
        onStrategyState: sink.onStrategyState,
        onSetAside: (m, index) => {
          sink.onSetAside(m, index);
          if (this.model.snapshot.sessionId === sessionId) this.d.post(this.model.setAside(m.content));
        },
        onMessage: (m) => {
          sink.onMessage(m);
          // A stored output's full size, and whether the model saw it whole: the card shows them.
          if (m.role === 'tool' && m.storedAt && m.toolCallId && this.model.snapshot.sessionId === sessionId)
            this.d.post(this.model.storedOutput(m.toolCallId, m.content));
        },
      },
    );
    const history =
      existing ??
      (await openOwnHistory(store, sessionId, {
        tokenizer,
        written: restoring ? session.state().messages.length : 0,
        records: this.resumed?.records ?? [],
        sessions: this.written,
        logger: this.d.logger,
      }));
    sink.session = session;
    sink.history = history;
    if (this.model.snapshot.sessionId !== sessionId) return { session, history, own: existing !== undefined };
    // Kept only once its history file is open: a session without one would never be written (nor resumed).
    this.session = session;
    this.history = history;
    this.carryOver = undefined;
    return { session, history, own: true };
  }

  private fresh(): ChatSnapshot {
    const s = this.d.settings();
    if (listsLanguageModels(s)) void this.refreshLanguageModels();
    return freshChat(s);
  }

  /** The picker offers every chat model VS Code has (vscode-lm only). */
  private async refreshLanguageModels(): Promise<void> {
    try {
      const models = await languageModelIds(this.d.settings()['agent.model']);
      this.d.post(this.model.patch([{ op: 'models', models }]));
    } catch (e) {
      this.d.logger.warn(`Listing VS Code language models failed: ${String(e)}`);
    }
  }

  dispose(): void {
    // Nothing starts after the window closes; a message still waiting goes back in the message box.
    const unsent = this.afterRun.take();
    if (unsent !== undefined) this.d.keepUnsent?.(unsent);
    this.stop();
    // The stopped run still appends its last messages (its answer as far as it streamed, cancelled
    // results): as at New Chat, its history file closes and its tokenizer goes only after them.
    const history = this.history;
    this.history = undefined;
    const tokenizer = this.tokenizer.retire();
    this.closing = Promise.all([this.closing, this.runDone.then(() => history?.close())])
      .catch((e: unknown) => this.d.logger.error(`Closing the chat history failed: ${String(e)}`))
      .then(() => tokenizer?.dispose());
  }
}
