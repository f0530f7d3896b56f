// One attempt at a model call: ask the budget, send, and account for what really happened.
//
// A call counts (call number, record, `context-prepared` for the meter) once a server answered it: a
// stream event arrived or an HTTP status came back. What was never answered (connection refused, DNS,
// a timeout before any answer) is neither counted nor billed, and its budget spend is given back. A call
// that failed after an answer is billed only by the usage the provider reported; a call the user stopped
// while the server was answering is billed by our own count (the provider did the work).
import type { TokenBudget } from '../budget';
import type { Message } from '../messages';
import type { Clock } from '../ports';
import type { ContextResult, StrategyName } from '../strategies/types';
import type { CallAccountant, PreparedBill } from './accounting';
import { callFinished, callRecord, countOutput, maskedObservations, untilAborted } from './call-records';
import { ProviderError, isAbortError } from './errors';
import type { AgentEvent } from './events';
import { collectChat, type ChatProvider, type ChatResult, type ChatStreamEvent, type ToolSpec } from './provider';
import type { SessionState } from './session-state';

export interface AttemptContext {
  provider: ChatProvider;
  model: string;
  accountant: CallAccountant;
  budget: TokenBudget;
  state: SessionState;
  strategy: StrategyName;
  /** False for the chars/4 estimate. */
  exact: boolean;
  clock: Clock;
  emit: (event: AgentEvent) => void;
  taskId?: string;
  agentId?: string;
  temperature?: number;
  maxOutputTokens?: number;
}

export interface AttemptInput {
  turn: number;
  /** What is sent: the strategy's view, filtered on a filtered retry. */
  sent: readonly Message[];
  history: readonly Message[];
  view: ContextResult;
  specs: readonly ToolSpec[];
  retry: boolean;
  filtered: boolean;
  signal: AbortSignal;
}

export type AttemptOutcome =
  | { type: 'ok'; result: ChatResult }
  | { type: 'failed'; error: ProviderError }
  | { type: 'stopped'; reason: 'aborted' | 'budget'; message: string };

const STOPPED: AttemptOutcome = { type: 'stopped', reason: 'aborted', message: 'Stopped by the user' };

export class ModelCaller {
  /** Output of the last call, asked of the budget with the next request (it is known only afterwards). */
  pendingOutputTokens = 0;

  constructor(private readonly ctx: () => AttemptContext) {}

  async attempt(a: AttemptInput): Promise<AttemptOutcome> {
    const c = this.ctx();
    const bill = c.accountant.bill(a.sent, a.history, a.specs);
    const spend = {
      tokens: bill.tokensSent + this.pendingOutputTokens,
      ...(c.taskId !== undefined ? { taskId: c.taskId } : {}),
      ...(c.agentId !== undefined ? { agentId: c.agentId } : {}),
      reason: `model call for turn ${a.turn}`,
    };
    const input = { ...spend, tokens: bill.tokensSent };
    const asked = c.budget.request(spend);
    const decision = await untilAborted(asked, a.signal);
    if (decision === undefined || a.signal.aborted) {
      // Stopped while the budget decided: a spend it granted never happened.
      void asked
        .then((d) => {
          if (!d.allowed) return;
          this.pendingOutputTokens = 0;
          return this.refund(c, input);
        })
        .catch(() => undefined);
      return STOPPED;
    }
    if (!decision.allowed)
      return {
        type: 'stopped',
        reason: 'budget',
        message: `The ${decision.scope.level} budget stopped the run (${decision.reason})`,
      };
    this.pendingOutputTokens = 0;

    const call = c.state.calls.length + 1;
    let answered = false;
    const announce = (inputCost: number): void => {
      answered = true;
      c.state.cost += inputCost;
      c.emit({
        type: 'context-prepared',
        turn: a.turn,
        call,
        strategy: c.strategy,
        retry: a.retry,
        messages: a.sent.length,
        ...bill,
        inputCost,
        costSoFar: c.state.cost,
        masked: a.filtered ? [] : maskedObservations(a.view, c.state.messages),
        summarizedTurns: a.view.summarizedTurns,
        estimated: !c.exact,
      });
    };
    const onAnswer = (): void => {
      c.accountant.commit(a.sent); // the provider has the prompt now: the next call's prefix is cached
      announce(bill.inputCost);
    };
    const partial: ChatResult = { text: '', toolCalls: [], usage: {} };
    try {
      const stream = c.provider.chat({
        model: c.model,
        messages: a.sent,
        tools: a.specs,
        signal: a.signal,
        ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
        ...(c.maxOutputTokens !== undefined ? { maxOutputTokens: c.maxOutputTokens } : {}),
      });
      await collectChat(
        onFirst(stream, onAnswer),
        (text) => c.emit({ type: 'text-delta', turn: a.turn, text }),
        partial,
      );
    } catch (e) {
      const aborted = a.signal.aborted || isAbortError(e);
      const error = aborted ? undefined : asProviderError(e);
      if (!answered && error?.status === undefined) {
        await this.refund(c, input); // never answered: not a call, not billed
        return error ? { type: 'failed', error } : STOPPED;
      }
      this.failedCall(c, a, call, bill, partial, aborted, answered, announce, input);
      return error ? { type: 'failed', error } : STOPPED;
    }
    if (!answered) onAnswer(); // an empty but successful answer
    const output = partial.usage.outputTokens ?? countOutput(c.accountant, partial);
    this.pendingOutputTokens += output;
    this.record(c, a, call, bill, bill.inputCost, output, partial);
    return { type: 'ok', result: partial };
  }

  /** Bills a call that failed or was stopped after a server answered it. */
  private failedCall(
    c: AttemptContext,
    a: AttemptInput,
    call: number,
    bill: PreparedBill,
    partial: ChatResult,
    aborted: boolean,
    announced: boolean,
    announce: (inputCost: number) => void,
    input: { tokens: number },
  ): void {
    const usage = partial.usage;
    const reported = usage.inputTokens !== undefined || usage.outputTokens !== undefined;
    let inputCost = 0;
    let output = 0;
    if (reported) {
      inputCost = c.accountant.usageInputCost(usage);
      output = usage.outputTokens ?? 0;
    } else if (aborted && announced) {
      inputCost = bill.inputCost;
      output = countOutput(c.accountant, partial);
    } else void this.refund(c, input);
    if (announced) c.state.cost += inputCost - bill.inputCost;
    else announce(inputCost);
    this.pendingOutputTokens += output;
    this.record(c, a, call, bill, inputCost, output, reported ? partial : undefined);
  }

  private refund(c: AttemptContext, input: { tokens: number }): Promise<void> {
    return c.budget.refund(input);
  }

  private record(
    c: AttemptContext,
    a: AttemptInput,
    call: number,
    bill: PreparedBill,
    inputCost: number,
    output: number,
    result: ChatResult | undefined,
  ): void {
    const outputCost = c.accountant.outputCost(output);
    const record = callRecord(a.turn, call, a.retry, { ...bill, inputCost }, output, outputCost, c.clock.now(), result);
    c.state.cost += outputCost;
    c.state.calls.push(record);
    c.emit(callFinished(record, c.state.cost));
  }
}

function asProviderError(e: unknown): ProviderError {
  return e instanceof ProviderError ? e : new ProviderError({ kind: 'network', message: String(e) }, { cause: e });
}

/** The stream, calling `first` before its first event (the moment a server is known to have answered). */
async function* onFirst(stream: AsyncIterable<ChatStreamEvent>, first: () => void): AsyncIterable<ChatStreamEvent> {
  let seen = false;
  for await (const event of stream) {
    if (!seen) {
      seen = true;
      first();
    }
    yield event;
  }
}
