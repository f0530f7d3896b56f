// One attempt at a model call: ask the budget, send, and account for what really happened.
//
// A call counts (call number, record, `context-prepared` for the meter) once a server answered it: a
// stream event arrived or an HTTP status came back. What was never answered (connection refused, DNS,
// a timeout before any answer) is neither counted nor billed, and its budget spend is given back. A call
// that failed after an answer is billed only when the provider reported usage (its output, when it has
// not reported that yet, by our count of what streamed); a call the user stopped while the server was
// answering is billed by our own count (the provider did the work). The budget is asked with our count
// before the call (scaled by how far it fell short of the provider's on the last call, expected-prompt.ts)
// and brought to the prompt size the provider reported after it (settleInput); a provider that reports
// nothing (vscode.lm) leaves the asked figure, and our count of the answer scaled alike, as the estimate
// for a model we do not count exactly. Under a hard budget the call's output is capped at what the budget
// leaves after its prompt (output-cap.ts).
import type { BudgetRoom, SpendRequest, TokenBudget } from '../budget';
import type { Message } from '../messages';
import type { Clock } from '../ports';
import type { MoneyPrice } from '../cost/pricing';
import type { ContextResult, StrategyName } from '../strategies/types';
import type { CallAccountant, PreparedBill } from './accounting';
import {
  callFinished,
  callRecord,
  countOutput,
  maskedObservations,
  untilAborted,
  type BilledInput,
} from './call-records';
import { asProviderError, isAbortError, type ProviderError } from './errors';
import type { AgentEvent } from './events';
import { modelOutputLimit } from './model-output-limits';
import { expectedOutput, expectedPrompt } from './expected-prompt';
import { outputLimited } from './output-limited';
import { ANY_MODEL_OUTPUT, MIN_ANSWER_TOKENS, outputCap, tooSmallMessage } from './output-cap';
import { collectChat, onFirst, type ChatProvider, type ChatResult, type ToolSpec } from './provider';
import type { CallRecord, SessionState } from './session-state';
import { otherUnits } from './model-units';
import { replyEnd } from './stop-reason';
import { formatCount } from '../numbers';

/** The budget whose room cut an answer, and its mode. */
export type BudgetCut = Omit<BudgetRoom, 'tokens'>;

export interface AttemptContext {
  provider: ChatProvider;
  model: string;
  accountant: CallAccountant;
  budget: TokenBudget;
  state: SessionState;
  strategy: StrategyName;
  /** The strategy's parameters, recorded with each call. */
  params: NonNullable<CallRecord['params']>;
  tokenizer: string;
  /** US$ per unit, when the model's price is known. */
  money?: MoneyPrice;
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
  /** `budgetCut`: the answer was cut at the output limit the budget set (its room was the limit). */
  | { type: 'ok'; result: ChatResult; budgetCut?: BudgetCut }
  /** `partialText`: what streamed before the error (shown on the panel; kept if the run gives up). */
  | { type: 'failed'; error: ProviderError; partialText?: string }
  /** `partialText`: what a call stopped mid-answer had streamed (the panel shows it). */
  | { type: 'stopped'; reason: 'aborted' | 'budget'; message: string; partialText?: string };

const STOPPED: Extract<AttemptOutcome, { type: 'stopped' }> = {
  type: 'stopped',
  reason: 'aborted',
  message: 'Stopped by the user',
};

export class ModelCaller {
  /**
   * Tokens spent but not yet asked of the budget, asked with the next request: the last call's output (known
   * only afterwards) and prompt tokens the provider billed beyond our count.
   */
  pendingTokens = 0;
  /** Observations masked in the previous call's context (ids), to record which ones are new. */
  private maskedBefore = new Set<string>();
  /** When the call being made was sent (its record keeps it). */
  private sentAt = 0;

  constructor(private readonly ctx: () => AttemptContext) {}

  async attempt(a: AttemptInput): Promise<AttemptOutcome> {
    const c = this.ctx();
    const bill = c.accountant.bill(a.sent, a.history, a.specs, c.clock.now());
    const counted = { tokens: bill.tokensSent, tools: bill.parts.tools, exact: c.exact };
    const prompt = expectedPrompt(counted, c.state.calls, c.model);
    const answer = answerLimit(c);
    const spend = {
      tokens: prompt + this.pendingTokens,
      spent: this.pendingTokens,
      reserve: MIN_ANSWER_TOKENS,
      ...(c.taskId !== undefined ? { taskId: c.taskId } : {}),
      ...(c.agentId !== undefined ? { agentId: c.agentId } : {}),
      // What an approval grants: the prompt ("needs N more") and an answer of at most this.
      reason:
        `model call for turn ${a.turn}` +
        (answer !== undefined ? `; its answer adds at most ${formatCount(answer)} more` : ''),
    };
    const input = { ...spend, tokens: prompt, spent: 0 };
    const asked = c.budget.request(spend);
    const decision = await untilAborted(asked, a.signal);
    if (decision === undefined || a.signal.aborted) {
      // Stopped while the budget decided: a spend it granted never happened.
      void asked
        .then((d) => {
          if (!d.allowed) return;
          this.pendingTokens = 0;
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
    this.pendingTokens = 0;
    const cap = outputCap(decision.room, answer ?? configuredOutput(c), modelOutputLimit(c.model));
    if (cap.type === 'too-small') {
      await this.refund(c, input); // not sent: its prompt was never spent
      return { type: 'stopped', reason: 'budget', message: tooSmallMessage(cap.room) };
    }

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
        ...otherUnits(c.state),
        masked: a.filtered ? [] : maskedObservations(a.view, c.state.messages),
        summarizedTurns: a.view.summarizedTurns,
        estimated: !c.exact,
      });
    };
    const onAnswer = (): void => {
      c.accountant.commit(a.sent, c.clock.now()); // the provider has the prompt now: the next call's prefix is cached
      announce(bill.inputCost);
    };
    const partial: ChatResult = { text: '', toolCalls: [], usage: {} };
    this.sentAt = c.clock.now();
    try {
      const sent = c.provider.chat({
        model: c.model,
        messages: a.sent,
        tools: a.specs,
        signal: a.signal,
        ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
        ...(cap.maxOutputTokens !== undefined ? { maxOutputTokens: cap.maxOutputTokens } : {}),
      });
      const limit = c.provider.ignoresOutputLimit ? cap.maxOutputTokens : undefined;
      const stream =
        limit === undefined
          ? sent
          : outputLimited(sent, limit, (t) => expectedOutput(c.accountant.countText(t), c.exact, c.model));
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
      await this.failedCall(c, a, call, bill, partial, aborted, answered, announce, input, error?.kind ?? 'aborted');
      const streamed = partial.text.trim() === '' ? {} : { partialText: partial.text };
      if (error) return { type: 'failed', error, ...streamed };
      return { ...STOPPED, ...streamed };
    }
    if (!answered) onAnswer(); // an empty but successful answer
    const output = partial.usage.outputTokens ?? countOutput(c.accountant, partial);
    const spent = partial.usage.outputTokens ?? expectedOutput(output, c.exact, c.model);
    this.pendingTokens += spent;
    // What the provider reported wins over our count: it is what it bills.
    const scaled = scaledFigures(c, input, partial.usage.inputTokens, spent);
    const billed: BilledInput =
      partial.usage.inputTokens !== undefined
        ? c.accountant.reportedInputCost(partial.usage, bill)
        : estimatedInput(c, bill, scaled);
    c.state.cost += billed.inputCost - bill.inputCost;
    await this.settleInput(c, input, partial.usage.inputTokens, bill);
    this.record(c, a, call, bill, billed, output, partial, undefined, scaled);
    const room = decision.room;
    if (cap.byBudget && room && replyEnd(partial.finishReason) === 'output-limit')
      return {
        type: 'ok',
        result: partial,
        budgetCut: { level: room.level, ...(room.id !== undefined ? { id: room.id } : {}), mode: room.mode },
      };
    return { type: 'ok', result: partial };
  }

  /** Bills a call that failed or was stopped after a server answered it. */
  private async failedCall(
    c: AttemptContext,
    a: AttemptInput,
    call: number,
    bill: PreparedBill,
    partial: ChatResult,
    aborted: boolean,
    announced: boolean,
    announce: (inputCost: number) => void,
    input: SpendRequest,
    error: string,
  ): Promise<void> {
    const usage = partial.usage;
    const reported = usage.inputTokens !== undefined || usage.outputTokens !== undefined;
    let billed: BilledInput = { inputCost: 0, by: 'none' };
    let output = 0;
    let spent = 0; // the output as the budget counts it
    let scaled: CallRecord['scaled'];
    if (reported) {
      // Anthropic reports output only at the end: a call cut before it produced what streamed so far.
      output = usage.outputTokens ?? countOutput(c.accountant, partial);
      spent = usage.outputTokens ?? expectedOutput(output, c.exact, c.model);
      // Output alone reported (a prompt size the usage could not give): the prompt as the budget keeps it.
      scaled = scaledFigures(c, input, usage.inputTokens, spent);
      billed =
        usage.inputTokens !== undefined ? c.accountant.reportedInputCost(usage, bill) : estimatedInput(c, bill, scaled);
      await this.settleInput(c, input, usage.inputTokens, bill);
    } else if (aborted && announced) {
      output = countOutput(c.accountant, partial);
      spent = expectedOutput(output, c.exact, c.model);
      scaled = scaledFigures(c, input, undefined, spent);
      billed = estimatedInput(c, bill, scaled);
      await this.settleInput(c, input, undefined, bill);
    } else await this.refund(c, input); // before the record reads the budget: it must not count this call
    if (announced) c.state.cost += billed.inputCost - bill.inputCost;
    else announce(billed.inputCost);
    this.pendingTokens += spent;
    this.record(c, a, call, bill, billed, output, reported ? partial : undefined, error, scaled);
  }

  private refund(c: AttemptContext, input: SpendRequest): Promise<void> {
    return c.budget.refund(input);
  }

  /**
   * Brings the budget from the prompt size asked before the call (`input`: our count, scaled by the last
   * shortfall) to `reported`, what the provider reported: our tokenizer is another family's for Claude,
   * Gemini and the rest (o200k counts Claude's prompts about a fifth short), and a budget kept by it would
   * let that much more through, call after call. Nothing reported: our count where it is the model's own,
   * else the asked figure stays (settled to our count, Claude via vscode.lm passed a hard limit over a
   * session by that fifth).
   */
  private async settleInput(
    c: AttemptContext,
    input: SpendRequest,
    reported: number | undefined,
    bill: PreparedBill,
  ): Promise<void> {
    const actual = reported ?? (c.exact ? bill.tokensSent : input.tokens);
    if (actual === input.tokens) return;
    if (actual > input.tokens) this.pendingTokens += actual - input.tokens;
    else await this.refund(c, { ...input, tokens: input.tokens - actual });
  }

  private record(
    c: AttemptContext,
    a: AttemptInput,
    call: number,
    bill: PreparedBill,
    billed: BilledInput,
    output: number,
    result: ChatResult | undefined,
    error?: string,
    scaled?: CallRecord['scaled'],
  ): void {
    // The prompt's size picks the prices (a long-context tier): the provider's figure when it gave one.
    const prompt = result?.usage.inputTokens ?? scaled?.inputTokens ?? bill.tokensSent;
    const outputCost = c.accountant.outputCost(scaled?.outputTokens ?? output, prompt);
    const record = callRecord(
      { turn: a.turn, call, retry: a.retry, at: c.clock.now(), sentAt: this.sentAt },
      bill,
      billed,
      { tokens: output, cost: outputCost },
      result?.usage,
    );
    const masked = a.filtered ? [] : maskedObservations(a.view, c.state.messages);
    const key = (m: { index: number; toolCallId?: string }): string => m.toolCallId ?? `#${m.index}`;
    const newly = masked.filter((m) => !this.maskedBefore.has(key(m)));
    this.maskedBefore = new Set(masked.map(key));
    const budget = c.budget.usage()[0];
    const prices = c.accountant.pricesFor(prompt);
    Object.assign(record, {
      strategy: c.strategy,
      params: c.params,
      tokenizer: c.tokenizer,
      model: c.model,
      prices: {
        cachedPrice: prices.cachedPrice,
        cacheWritePrice: prices.cacheWritePrice,
        ...(prices.reportedWritePrice !== undefined ? { reportedWritePrice: prices.reportedWritePrice } : {}),
        outputPrice: prices.outputPrice,
        ...(prices.inputPrice !== undefined ? { inputPrice: prices.inputPrice } : {}),
      },
      ...(c.money ? { costUsd: record.cost * c.money.usdPerUnit, money: c.money } : {}),
      masked: {
        count: masked.length,
        stored: masked.filter((m) => m.storedAt).length,
        newly: newly.map((m) => ({
          ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
          ...(m.storedAt ? { storedAt: m.storedAt } : {}),
        })),
      },
      budget: {
        spentTokens: (budget?.used ?? 0) + this.pendingTokens,
        ...(budget?.limit !== undefined ? { limit: budget.limit, mode: budget.mode } : {}),
      },
      ...(error ? { error } : {}),
      ...(scaled ? { scaled } : {}),
    } satisfies Partial<CallRecord>);
    c.state.cost += outputCost;
    c.state.calls.push(record);
    c.emit(callFinished(record, c.state.cost, c.state.otherModelUnits));
  }
}

/**
 * The prompt and answer as the budget keeps them for a call whose prompt size the provider did not report,
 * on a model our tokenizer does not count exactly; undefined otherwise (our count is the model's own, or
 * the provider's figure stands). Its cost is billed by them: billed by our own count, a Claude call via
 * vscode.lm cost about a fifth less than the budget counted.
 */
function scaledFigures(
  c: AttemptContext,
  input: SpendRequest,
  reportedInput: number | undefined,
  spentOutput: number,
): CallRecord['scaled'] {
  if (reportedInput !== undefined || c.exact) return undefined;
  return { inputTokens: input.tokens, outputTokens: spentOutput };
}

/** Input billed without the provider's prompt size: at the scaled size when there is one, else our count. */
function estimatedInput(c: AttemptContext, bill: PreparedBill, scaled: CallRecord['scaled']): BilledInput {
  return {
    inputCost: scaled ? c.accountant.scaledInputCost(scaled.inputTokens, bill) : bill.inputCost,
    by: 'estimate',
  };
}

function configuredOutput(c: AttemptContext): number | undefined {
  return c.maxOutputTokens ?? c.provider.defaultMaxOutputTokens;
}

/**
 * Under an approval budget, the most one answer may write (the configured limit, else the model's own,
 * else 4,096), sent with every call: an approval names it, so an approved call cannot pass it. Undefined
 * without an approval budget (a hard one sets its own, output-cap.ts).
 */
function answerLimit(c: AttemptContext): number | undefined {
  if (!c.budget.applies('approval')) return undefined;
  return configuredOutput(c) ?? modelOutputLimit(c.model) ?? ANY_MODEL_OUTPUT;
}
