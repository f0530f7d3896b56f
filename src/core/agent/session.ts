// The agent loop: prepare the context with the selected strategy, make one model call (ModelCaller: budget,
// send, accounting) with the retries the retry policy allows (retry-loop.ts), run the tools, repeat until
// the model answers without tool calls, the user stops, the budget refuses or a failure cannot be retried.
import { TokenBudget } from '../budget';
import type { Message, Tokenizer } from '../messages';
import type { StrategyState } from '../strategies/strategy-state';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { AgentOptions, LiveSettings } from './session-options';
import { createStrategy } from '../strategies/registry';
import { createRetryFilterStrategy } from '../strategies/retry-filter';
import type { ContextResult, ContextStrategy, StrategyName, StrategyOptions } from '../strategies/types';
import { countsExactly } from '../tokens/model-family';
import { uniqueCallIds } from './call-ids';
import { SUMMARY_REST_CALLS, SummaryRest } from './summary-rest';
import { BudgetStop, stoppable } from './call-records';
import { isAbortError } from './errors';
import type { AgentEvent, AgentEventListener } from './events';
import { passThroughLongOutput } from './long-output';
import { ModelCaller, type AttemptContext } from './model-call';
import { sessionSummarizer } from './session-summarizer';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';
import { callWithRetries, type CallOutcome } from './retry-loop';
import { newSessionState, type CallRecord, type SessionState } from './session-state';
import { restoredState } from './restored-state';
import { unitsUnderModel } from './model-units';
import { abortableSleep, type AbortableSleep } from './sleep';
import { answerOpenCalls, runToolCalls } from './run-tools';
import { BUDGET_CUT_CALL_TEXT, budgetRanOutMessage, unfinishedReply } from './stop-reason';
import { overWindowStop } from './set-aside';
import { SessionSettings, type StrategyMaker } from './session-settings';

export type { AgentOptions, LiveSettings } from './session-options';

/** Replies cut mid tool call in a row after which the run stops. */
const MAX_CUT_REPLIES = 3;

export class AgentSession {
  private readonly listeners = new Set<AgentEventListener>();
  private readonly s: SessionState;
  /** The strategy, tokenizer, prices and budget limits, which may change between calls. */
  private readonly settings: SessionSettings;
  private readonly retryFilter = createRetryFilterStrategy();
  private readonly budget: TokenBudget;
  private readonly caller: ModelCaller;
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly sleep: AbortableSleep;
  private signal: AbortSignal = new AbortController().signal;
  private running = false;
  /** The record of a call whose answer is about to be added: reported right after it. */
  private heldRecord: CallRecord | undefined;
  /** After a failed summary, contexts are built without summarizing for a few calls. */
  private readonly summaryRest = new SummaryRest();
  /** The strategy state last reported to `onStrategyState` (JSON), so an unchanged one is not written again. */
  private savedStrategyState: string | undefined;
  /** Why a restored strategy state was not taken up: told on the first run. */
  private ignoredState: string | undefined;

  constructor(private readonly o: AgentOptions) {
    this.clock = o.clock ?? systemClock;
    this.log = o.logger ?? silentLogger;
    this.sleep = o.sleep ?? abortableSleep;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...o.retry };
    const restored = o.restore
      ? restoredState(o.restore, o.systemPrompt, (why) => (this.ignoredState = why))
      : undefined;
    this.budget = new TokenBudget({
      // Backpressure waits end early on Stop (the loop then sees the aborted signal).
      sleep: (ms) => this.sleep(ms, this.signal).catch(() => undefined),
      ...o.budget,
      // A Stop answers a pending approval with "no", so the budget's queue never waits on a dead prompt.
      ...(o.budget?.approval ? { approval: stoppable(o.budget.approval, () => this.signal) } : {}),
      clock: this.clock,
      onEvent: (event) => this.emit({ type: 'budget', event }),
      // A conversation that goes on (new model or strategy) keeps what it spent.
      sessionUsed: restored?.spentTokens ?? 0,
    });
    this.caller = new ModelCaller(() => this.attemptContext()); // before the summarizer, which adds to it
    const make: StrategyMaker = (name, options, tokenizer) => this.makeStrategy(name, options, tokenizer);
    this.settings = new SessionSettings(o, this.budget, make, () => this.s);
    const strategyName = this.settings.strategyName;
    // The same strategy goes on with its checkpoint and mask boundary (no new summary, the same prefix).
    if (restored?.strategyState?.strategy === strategyName) this.strategy.restore?.(restored.strategyState);
    if (restored) delete restored.strategyState; // from now on the strategy holds it (see `state`)
    this.savedStrategyState = JSON.stringify(this.strategy.snapshot?.());
    if (this.ignoredState) this.log.warn(this.ignoredState);
    this.s =
      restored ??
      newSessionState({
        ...(o.sessionId ? { id: o.sessionId } : {}),
        createdAt: this.clock.now(),
        provider: o.provider.id,
        model: o.model,
        strategy: strategyName,
        systemPrompt: o.systemPrompt,
      });
    Object.assign(this.s, { provider: o.provider.id, model: o.model, strategy: strategyName });
    // Going on with another model: `cost` counts only its units, the earlier models' are kept apart.
    if (restored) unitsUnderModel(this.s, o.model);
  }

  /** The current strategy (it changes with the settings, or when a message is set aside). */
  private get strategy(): ContextStrategy {
    return this.settings.strategy;
  }

  /** A fresh strategy (and summarizer) from the given name, options and tokenizer; throws on bad options. */
  private makeStrategy(name: StrategyName, options: StrategyOptions, tokenizer: Tokenizer): ContextStrategy {
    const summarizer = sessionSummarizer(
      {
        options: this.o,
        budget: this.budget,
        caller: this.caller,
        state: () => this.s,
        accountant: () => this.settings.accountant,
        money: () => this.settings.money,
        signal: () => this.signal,
        policy: this.policy,
        sleep: this.sleep,
        clock: this.clock,
        log: this.log,
        emit: (e) => this.emit(e),
        report: (callback) => this.report(callback),
      },
      tokenizer,
      options.summaryTokens,
    );
    const pointer = this.o.historyPointer ? { historyPointer: this.o.historyPointer } : {};
    return createStrategy(name, { tokenizer, summarizer, ...pointer }, options);
  }

  private attemptContext(): AttemptContext {
    const o = this.o;
    const { accountant, strategyOptions, tokenizer, money } = this.settings;
    return {
      provider: o.provider,
      model: o.model,
      accountant,
      budget: this.budget,
      state: this.s,
      strategy: this.strategy.name,
      params: {
        window: strategyOptions.window,
        polling: strategyOptions.polling,
        contextWindow: strategyOptions.contextWindow,
        summaryTokens: strategyOptions.summaryTokens,
      },
      tokenizer: tokenizer.name,
      ...(money ? { money } : {}),
      // o200k / cl100k count OpenAI's models exactly; any other model's tokens they only estimate.
      exact: tokenizer.exact && countsExactly(tokenizer.name, o.model),
      clock: this.clock,
      emit: (e) => this.emit(e),
      ...(o.taskId !== undefined ? { taskId: o.taskId } : {}),
      ...(o.agentId !== undefined ? { agentId: o.agentId } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.maxOutputTokens !== undefined ? { maxOutputTokens: o.maxOutputTokens } : {}),
    };
  }

  /**
   * Takes up changed settings from the next model call on (even in the middle of a run); values equal to
   * the current ones change nothing, so a strategy keeps its state unless it really changes.
   */
  reconfigure(update: LiveSettings): void {
    this.settings.reconfigure(update);
  }

  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A serialisable copy of the session, with the tokens its budgets counted so far. */
  state(): SessionState {
    const spentTokens = (this.budget.usage()[0]?.used ?? 0) + this.caller.pendingTokens;
    const strategyState = this.strategy.snapshot?.();
    return { ...structuredClone(this.s), spentTokens, ...(strategyState ? { strategyState } : {}) };
  }

  get id(): string {
    return this.s.id;
  }

  /** The conversation as it grows (not a copy: read it, do not keep it). */
  get messages(): readonly Message[] {
    return this.s.messages;
  }

  private emit(event: AgentEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        this.log.error(e instanceof Error ? e : String(e)); // a broken listener must not break the run
      }
    }
  }

  /** Adds the user's message and works until the model is done; resolves with how it ended. */
  async send(userText: string, signal: AbortSignal = new AbortController().signal): Promise<SessionState['status']> {
    if (this.running) throw new Error('The agent is already running; stop it or wait for it to finish');
    if (userText.trim() === '') throw new RangeError('The message is empty');
    this.running = true;
    this.signal = signal;
    this.s.status = 'running';
    this.append({ role: 'user', content: userText, origin: 'person' });
    if (this.ignoredState) this.emit({ type: 'warning', turn: this.s.turns + 1, message: this.ignoredState });
    this.ignoredState = undefined;
    try {
      this.s.status = await this.work(signal);
    } catch (e) {
      // Anything the loop did not expect (a tokenizer out of stack on a huge message, say) ends the run
      // like an error: never a status left at `running`, a rejected send, or a call without its result.
      this.log.error(e instanceof Error ? e : String(e));
      for (const m of answerOpenCalls(this.s.messages)) this.append(m);
      this.s.status = this.stop('error', `The agent failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.running = false;
    }
    return this.s.status;
  }

  private append(m: Message): void {
    this.s.messages.push(m);
    try {
      this.o.onMessage?.(m, this.s.messages.length - 1, this.s.turns);
    } catch (e) {
      this.log.error(e instanceof Error ? e : String(e)); // a failing history writer must not stop the agent
    }
  }

  /** Runs a record callback; a failing history writer must not stop the agent. */
  private report(callback: () => void): void {
    try {
      callback();
    } catch (e) {
      this.log.error(e instanceof Error ? e : String(e));
    }
  }

  /** Tells `onStrategyState` when the strategy's state changed (a history file keeps it for a resume). */
  private reportStrategyState(): void {
    const state = this.strategy.snapshot?.();
    const json = JSON.stringify(state);
    if (!state || json === this.savedStrategyState) return;
    this.savedStrategyState = json;
    this.report(() => this.o.onStrategyState?.(structuredClone(state)));
  }

  private reportCall(record: CallRecord): void {
    this.report(() => this.o.onCall?.(record));
  }

  private stop(reason: 'aborted' | 'budget' | 'error', message: string, setAside?: true): typeof reason {
    this.emit({ type: 'stopped', reason, turns: this.s.turns, message, ...(setAside ? { setAside } : {}) });
    return reason;
  }

  private async work(signal: AbortSignal): Promise<SessionState['status']> {
    const maxTurns = this.o.maxTurns ?? 100;
    let cutInARow = 0; // replies the output limit cut mid tool call, one after the other
    for (let calls = 0; ; calls++) {
      if (signal.aborted) return this.stop('aborted', 'Stopped by the user');
      if (calls >= maxTurns) {
        this.emit({ type: 'done', reason: 'max-turns', turns: this.s.turns, limit: maxTurns });
        return 'max-turns';
      }
      // A turn counts once its answer is kept, as a resumed session counts them (its assistant messages):
      // a call that failed leaves the number to the next try, so turn numbers match across a resume.
      const turn = this.s.turns + 1;
      this.emit({ type: 'turn-started', turn, at: this.clock.now() });
      const outcome = await this.callModel(turn, signal);
      if (!outcome.ok) {
        // A stopped answer stays as far as it streamed: the panel shows it, so the model and a resume see it too.
        if (outcome.partialText !== undefined) {
          this.s.turns = turn;
          this.append({ role: 'assistant', content: outcome.partialText, origin: 'agent' });
        }
        return this.stop(outcome.reason, outcome.message, outcome.setAside);
      }
      this.s.turns = turn;
      const text = outcome.result.text;
      // Before the answer is kept, run or sent back: a result pairs with its call by id.
      const toolCalls = uniqueCallIds(outcome.result.toolCalls, this.s.messages);
      const budgetCut = outcome.budgetCut;
      const { cut, warning } = unfinishedReply(outcome.result.finishReason, toolCalls, this.o.tools, budgetCut, text);
      if (warning) {
        this.log.warn(warning);
        this.emit({ type: 'warning', turn, message: warning });
      }
      const action: Message = { role: 'assistant', content: text, origin: 'agent' };
      if (toolCalls.length > 0) action.toolCalls = toolCalls;
      this.append(action);
      const held = this.heldRecord;
      this.heldRecord = undefined;
      if (held) this.reportCall(held);
      if (toolCalls.length === 0) {
        if (budgetCut) return this.stop('budget', budgetRanOutMessage(budgetCut));
        this.emit({ type: 'done', reason: 'completed', turns: this.s.turns });
        return 'completed';
      }
      await runToolCalls(toolCalls, {
        tools: this.o.tools,
        longOutput: this.o.longOutput ?? passThroughLongOutput,
        session: this.s.id,
        turn,
        signal,
        clock: this.clock,
        emit: (e) => this.emit(e),
        ...(cut ? { cutCallId: cut.id } : {}),
        ...(budgetCut ? { cutCallText: BUDGET_CUT_CALL_TEXT } : {}),
        // Kept as each tool is done: a crash while a later call of the action runs keeps the earlier results.
        onResult: (m) => {
          const result: Message = { ...m, origin: 'environment' };
          this.append(result);
          // Count new text on arrival, so assembling the next call only looks tokens up.
          this.settings.accountant.count(result);
        },
      });
      if (signal.aborted) return this.stop('aborted', 'Stopped by the user');
      // An approval budget goes on: the next call is over its limit, so it asks before anything more is spent.
      if (budgetCut?.mode === 'hard') return this.stop('budget', budgetRanOutMessage(budgetCut));
      // Each cut reply costs a full output: a model that keeps writing too much is stopped, not paid on.
      cutInARow = cut ? cutInARow + 1 : 0;
      if (cutInARow >= MAX_CUT_REPLIES)
        return this.stop(
          'error',
          `The model's replies were cut at the output limit ${MAX_CUT_REPLIES} times in a row while it wrote a ` +
            'tool call. Allow it more output tokens, or ask for smaller steps.',
        );
    }
  }

  /** The strategy's view for this call; a failed summary warns and the call goes ahead (summary-rest.ts). */
  private buildContext(turn: number, history: readonly Message[], signal: AbortSignal): Promise<ContextResult> {
    // Tool definitions and reply priming travel with every request: the window leaves room for them.
    const reservedTokens = this.settings.accountant.reserved(this.o.tools.specs());
    return this.summaryRest.build(this.strategy, history, { reservedTokens }, signal, (why) => {
      this.log.warn(`Summarizing failed, the call goes ahead without a new summary: ${why}`);
      this.emit({
        type: 'warning',
        turn,
        message:
          `Summarizing the earlier turns failed (${why}). The agent goes on with them kept as they are; ` +
          `summarizing is tried again in ${SUMMARY_REST_CALLS} calls.`,
      });
    });
  }

  /** Prepares this call's context with the strategy, then makes the call with its retries (retry-loop.ts). */
  private async callModel(turn: number, signal: AbortSignal): Promise<CallOutcome> {
    const history = this.s.messages.slice();
    let view: ContextResult;
    let before: StrategyState | undefined; // the strategy's state as the model last saw it
    try {
      await this.settings.apply();
      before = this.strategy.snapshot?.();
      view = await this.buildContext(turn, history, signal);
    } catch (e) {
      this.reportStrategyState();
      if (e instanceof BudgetStop) return { ok: false, reason: 'budget', message: e.message };
      if (signal.aborted || isAbortError(e)) return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
      return { ok: false, reason: 'error', message: `Preparing the context failed: ${String(e)}` };
    }
    // Sending would only earn the provider's refusal (billed by some) or a silent cut.
    if (view.overWindow) {
      const whole = this.strategy.name === 'raw';
      const onSetAside = (m: Message, i: number): void => this.report(() => this.o.onSetAside?.(m, i));
      const tokenizer = this.settings.tokenizer;
      const stop = overWindowStop(view.overWindow, this.s.messages, { tokenizer, whole, onSetAside });
      // Set aside, the message was never part of the conversation: nor is what the strategy built on it.
      if (stop.setAside) this.settings.renewStrategy();
      if (stop.setAside && before) this.strategy.restore?.(before);
      this.reportStrategyState();
      return { ok: false, reason: 'error', message: stop.message, ...(stop.setAside ? { setAside: true } : {}) };
    }
    this.reportStrategyState();
    return callWithRetries(
      {
        caller: this.caller,
        retryFilter: this.retryFilter,
        policy: this.policy,
        tools: this.o.tools,
        calls: this.s.calls,
        emit: (e) => this.emit(e),
        sleep: this.sleep,
        // A kept answer's record waits for its message (see `onCall`); any other is final now.
        onRecord: (record, kept) => {
          if (kept) this.heldRecord = Object.assign(record, { answered: true });
          else this.reportCall(record);
        },
      },
      { turn, view, history, signal },
    );
  }
}
