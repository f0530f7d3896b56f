// The agent loop: prepare the context with the selected strategy, ask the budget, stream one model call
// (retrying classified failures and invalid tool calls), run the tools, repeat until the model answers
// without tool calls, the user stops, the budget refuses or a failure cannot be retried.
import { randomUUID } from 'node:crypto';
import { TokenBudget, type ApprovalPort, type BudgetOptions } from '../budget';
import type { Message, Tokenizer } from '../messages';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import { createStrategy } from '../strategies/registry';
import { createRetryFilterStrategy } from '../strategies/retry-filter';
import {
  DEFAULT_STRATEGY_OPTIONS,
  type ContextResult,
  type ContextStrategy,
  type StrategyName,
  type StrategyOptions,
} from '../strategies/types';
import { CallAccountant, type CallPrices, type PreparedBill } from './accounting';
import { BudgetStop, callFinished, callRecord, countOutput, maskedObservations, untilAborted } from './call-records';
import { ProviderError, isAbortError } from './errors';
import type { AgentEvent, AgentEventListener } from './events';
import { passThroughLongOutput, type LongOutputPort } from './long-output';
import { createModelSummarizer } from './model-summarizer';
import { collectChat, type ChatProvider, type ChatResult } from './provider';
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from './retry-policy';
import { SESSION_STATE_VERSION, parseSessionState, type SessionState } from './session-state';
import { abortableSleep, type AbortableSleep } from './sleep';
import { runToolCalls } from './run-tools';
import type { ToolRegistry } from './tool-registry';

export interface AgentOptions {
  provider: ChatProvider;
  model: string;
  tools: ToolRegistry;
  tokenizer: Tokenizer;
  systemPrompt?: string;
  /** Default `cache-aware`. */
  strategy?: StrategyName;
  strategyOptions?: Partial<StrategyOptions>;
  /** The model that writes checkpoints (summary, hybrid); defaults to the agent's own. */
  summaryModel?: { provider: ChatProvider; model: string };
  longOutput?: LongOutputPort;
  /** Budgets (approval port included); budget events arrive as `{ type: 'budget' }`. */
  budget?: Omit<BudgetOptions, 'onEvent' | 'clock'>;
  taskId?: string;
  agentId?: string;
  /** Relative prices; default: the strategy's cache prices and output at 4x input. */
  prices?: Partial<CallPrices>;
  retry?: Partial<RetryPolicy>;
  /** Model calls per `send` before it ends with `max-turns`. */
  maxTurns?: number;
  temperature?: number;
  maxOutputTokens?: number;
  sleep?: AbortableSleep;
  clock?: Clock;
  logger?: Logger;
  /** Called for every message added to the history (e.g. to append it to the history file). */
  onMessage?: (message: Message, index: number, turn: number) => void;
  /** Restores a session saved with `state` (the strategy's own state starts afresh). */
  restore?: SessionState;
}

type CallOutcome =
  { ok: true; result: ChatResult } | { ok: false; reason: 'aborted' | 'budget' | 'error'; message: string };

export class AgentSession {
  private readonly listeners = new Set<AgentEventListener>();
  private readonly s: SessionState;
  private readonly strategy: ContextStrategy;
  private readonly retryFilter = createRetryFilterStrategy();
  private readonly accountant: CallAccountant;
  private readonly budget: TokenBudget;
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly sleep: AbortableSleep;
  private signal: AbortSignal = new AbortController().signal;
  private pendingOutputTokens = 0;
  private running = false;

  constructor(private readonly o: AgentOptions) {
    this.clock = o.clock ?? systemClock;
    this.log = o.logger ?? silentLogger;
    this.sleep = o.sleep ?? abortableSleep;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...o.retry };
    const so: StrategyOptions = { ...DEFAULT_STRATEGY_OPTIONS, ...o.strategyOptions };
    this.accountant = new CallAccountant(o.tokenizer, {
      cachedPrice: o.prices?.cachedPrice ?? so.cachedPrice,
      cacheWritePrice: o.prices?.cacheWritePrice ?? so.cacheWritePrice,
      outputPrice: o.prices?.outputPrice ?? 4,
    });
    this.budget = new TokenBudget({
      // Backpressure waits end early on Stop (the loop then sees the aborted signal).
      sleep: (ms) => this.sleep(ms, this.signal).catch(() => undefined),
      ...o.budget,
      // A Stop answers a pending approval with "no", so the budget's queue never waits on a dead prompt.
      ...(o.budget?.approval ? { approval: this.stoppableApproval(o.budget.approval) } : {}),
      clock: this.clock,
      onEvent: (event) => this.emit({ type: 'budget', event }),
    });
    const summary = o.summaryModel ?? { provider: o.provider, model: o.model };
    const summarizer = createModelSummarizer({
      ...summary,
      tokenizer: o.tokenizer,
      summaryTokens: so.summaryTokens,
      signal: () => this.signal,
      beforeCall: async (tokens) => {
        const d = await this.budget.request({
          tokens,
          taskId: o.taskId,
          agentId: o.agentId,
          reason: 'summary model call',
        });
        if (!d.allowed) throw new BudgetStop(`The budget refused a summary call (${d.reason})`);
      },
      afterCall: (input, output) => {
        const cost = input + this.accountant.outputCost(output);
        this.s.summaryCalls.push({ inputTokens: input, outputTokens: output, cost });
        this.s.cost += cost;
      },
    });
    this.strategy = createStrategy(o.strategy ?? 'cache-aware', { tokenizer: o.tokenizer, summarizer }, so);
    if (o.restore) this.s = parseSessionState(o.restore);
    else {
      this.s = {
        version: SESSION_STATE_VERSION,
        id: randomUUID(),
        createdAt: this.clock.now(),
        provider: o.provider.id,
        model: o.model,
        strategy: this.strategy.name,
        // The system prompt has no origin: it is the host's standing instructions, kept by every strategy.
        messages: o.systemPrompt ? [{ role: 'system', content: o.systemPrompt }] : [],
        turns: 0,
        calls: [],
        summaryCalls: [],
        cost: 0,
        status: 'idle',
      };
    }
  }

  private stoppableApproval(port: ApprovalPort): ApprovalPort {
    return {
      requestApproval: async (request) => (await untilAborted(port.requestApproval(request), this.signal)) ?? false,
    };
  }

  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A serialisable copy of the session. */
  state(): SessionState {
    return structuredClone(this.s);
  }

  get id(): string {
    return this.s.id;
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
    try {
      this.s.status = await this.work(signal);
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

  private stop(reason: 'aborted' | 'budget' | 'error', message: string): typeof reason {
    this.emit({ type: 'stopped', reason, turns: this.s.turns, message });
    return reason;
  }

  private async work(signal: AbortSignal): Promise<SessionState['status']> {
    const maxTurns = this.o.maxTurns ?? 100;
    for (let calls = 0; ; calls++) {
      if (signal.aborted) return this.stop('aborted', 'Stopped by the user');
      if (calls >= maxTurns) {
        this.emit({ type: 'done', reason: 'max-turns', turns: this.s.turns });
        return 'max-turns';
      }
      const turn = ++this.s.turns;
      this.emit({ type: 'turn-started', turn, at: this.clock.now() });
      const outcome = await this.callModel(turn, signal);
      if (!outcome.ok) return this.stop(outcome.reason, outcome.message);
      const { text, toolCalls } = outcome.result;
      const action: Message = { role: 'assistant', content: text, origin: 'agent' };
      if (toolCalls.length > 0) action.toolCalls = toolCalls;
      this.append(action);
      if (toolCalls.length === 0) {
        this.emit({ type: 'done', reason: 'completed', turns: this.s.turns });
        return 'completed';
      }
      const ran = await runToolCalls(toolCalls, {
        tools: this.o.tools,
        longOutput: this.o.longOutput ?? passThroughLongOutput,
        session: this.s.id,
        turn,
        signal,
        clock: this.clock,
        emit: (e) => this.emit(e),
      });
      const results = ran.map((m): Message => ({ ...m, origin: 'environment' }));
      for (const m of results) this.append(m);
      // Count new text on arrival, so assembling the next call only looks tokens up.
      for (const m of results) this.accountant.count(m);
      if (signal.aborted) return this.stop('aborted', 'Stopped by the user');
    }
  }

  /** One model call with its retries; the context is built once and, on filtered retries, filtered. */
  private async callModel(turn: number, signal: AbortSignal): Promise<CallOutcome> {
    const history = this.s.messages.slice();
    let view: ContextResult;
    try {
      view = await this.strategy.build(history);
    } catch (e) {
      if (e instanceof BudgetStop) return { ok: false, reason: 'budget', message: e.message };
      if (signal.aborted || isAbortError(e)) return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
      return { ok: false, reason: 'error', message: `Preparing the context failed: ${String(e)}` };
    }
    const specs = this.o.tools.specs();
    let filtered = false;
    let failures = 0;
    let invalid = 0;
    for (;;) {
      const sent = filtered ? (await this.retryFilter.build(view.messages, { retry: true })).messages : view.messages;
      const bill = this.accountant.bill(sent, history, specs);
      const decision = await untilAborted(
        this.budget.request({
          tokens: bill.tokensSent + this.pendingOutputTokens,
          taskId: this.o.taskId,
          agentId: this.o.agentId,
          reason: `model call for turn ${turn}`,
        }),
        signal,
      );
      if (decision === undefined || signal.aborted)
        return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
      if (!decision.allowed)
        return {
          ok: false,
          reason: 'budget',
          message: `The ${decision.scope.level} budget stopped the run (${decision.reason})`,
        };
      if (signal.aborted) return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
      this.pendingOutputTokens = 0;
      this.accountant.commit(sent);
      this.s.cost += bill.inputCost;
      const call = this.s.calls.length + 1;
      const retry = filtered || failures + invalid > 0;
      this.emit({
        type: 'context-prepared',
        turn,
        call,
        strategy: this.strategy.name,
        retry,
        messages: sent.length,
        ...bill,
        costSoFar: this.s.cost,
        masked: filtered ? [] : maskedObservations(view, this.s.messages),
        summarizedTurns: view.summarizedTurns,
        estimated: !this.o.tokenizer.exact,
      });
      let result: ChatResult;
      try {
        const stream = this.o.provider.chat({
          model: this.o.model,
          messages: sent,
          tools: specs,
          signal,
          ...(this.o.temperature !== undefined ? { temperature: this.o.temperature } : {}),
          ...(this.o.maxOutputTokens !== undefined ? { maxOutputTokens: this.o.maxOutputTokens } : {}),
        });
        result = await collectChat(stream, (text) => this.emit({ type: 'text-delta', turn, text }));
      } catch (e) {
        this.record(turn, call, retry, bill, 0);
        if (signal.aborted || isAbortError(e)) return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
        const error =
          e instanceof ProviderError ? e : new ProviderError({ kind: 'network', message: String(e) }, { cause: e });
        const delay = retryDelay(error, failures, this.policy);
        this.emit({ type: 'error', turn, error: error.toInfo() });
        if (delay === undefined) return { ok: false, reason: 'error', message: error.message };
        failures++;
        filtered ||= this.policy.filterOn.includes(error.kind);
        this.emit({ type: 'retry', turn, attempt: failures, reason: error.kind, delayMs: delay, filtered });
        try {
          if (delay > 0) await this.sleep(delay, signal);
        } catch {
          return { ok: false, reason: 'aborted', message: 'Stopped by the user' };
        }
        continue;
      }
      const output = result.usage.outputTokens ?? countOutput(this.accountant, result);
      this.pendingOutputTokens = output;
      this.record(turn, call, retry, bill, output, result);
      const bad = result.toolCalls
        .map((c) => this.o.tools.check(c))
        .filter((c) => !c.ok && c.kind !== 'invalid-arguments');
      if (bad.length > 0 && invalid < this.policy.maxInvalidToolCallRetries) {
        invalid++;
        filtered = true;
        const reason = bad.map((b) => (b.ok ? '' : b.kind)).join(', ');
        this.emit({
          type: 'retry',
          turn,
          attempt: invalid,
          reason: `invalid tool call (${reason})`,
          delayMs: 0,
          filtered,
        });
        continue;
      }
      return { ok: true, result };
    }
  }

  private record(
    turn: number,
    call: number,
    retry: boolean,
    bill: PreparedBill,
    output: number,
    result?: ChatResult,
  ): void {
    const record = callRecord(
      turn,
      call,
      retry,
      bill,
      output,
      this.accountant.outputCost(output),
      this.clock.now(),
      result,
    );
    this.s.cost += this.accountant.outputCost(output);
    this.s.calls.push(record);
    this.emit(callFinished(record, this.s.cost));
  }
}
