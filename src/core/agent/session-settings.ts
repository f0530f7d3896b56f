// What a session runs with that may change while it runs (LiveSettings): the context strategy with its
// options and tokenizer, the prices and money its calls are billed at, the budget limits. A change waits
// until the loop takes it up before its next model call (`apply`), so no call is built with half of one.
import type { BudgetLimits, TokenBudget } from '../budget';
import type { Tokenizer } from '../messages';
import {
  DEFAULT_STRATEGY_OPTIONS,
  type ContextStrategy,
  type StrategyName,
  type StrategyOptions,
} from '../strategies/types';
import { DEFAULT_OUTPUT_PRICE, type MoneyPrice } from '../cost/pricing';
import { CallAccountant, type CallPrices } from './accounting';
import type { AgentOptions, LiveSettings } from './session-options';
import type { SessionState } from './session-state';

/** A fresh strategy (and summarizer) from the given name, options and tokenizer; throws on bad options. */
export type StrategyMaker = (name: StrategyName, options: StrategyOptions, tokenizer: Tokenizer) => ContextStrategy;

/** The session's current settings; read its fields, change them only through `reconfigure` and `apply`. */
export class SessionSettings {
  strategy: ContextStrategy;
  strategyName: StrategyName;
  strategyOptions: StrategyOptions;
  tokenizer: Tokenizer;
  accountant: CallAccountant;
  money: MoneyPrice | undefined;
  private budgetLimits: string;
  private pending: LiveSettings | undefined;
  private livePrices: CallPrices | undefined;

  constructor(
    private readonly o: AgentOptions,
    private readonly budget: TokenBudget,
    private readonly makeStrategy: StrategyMaker,
    private readonly state: () => SessionState,
  ) {
    this.tokenizer = o.tokenizer;
    this.strategyName = o.strategy ?? 'cache-aware';
    this.strategyOptions = { ...DEFAULT_STRATEGY_OPTIONS, ...o.strategyOptions };
    this.money = o.money;
    // Our Anthropic provider marks the prompt for caching: its cache reads only where it wrote.
    const cache = o.provider.id === 'anthropic' ? 'anthropic' : 'prefix';
    this.accountant = new CallAccountant(o.tokenizer, this.prices(), o.minCachedTokens, cache);
    this.budgetLimits = limitsKey(o.budget ?? {});
    this.strategy = makeStrategy(this.strategyName, this.strategyOptions, this.tokenizer);
  }

  private prices(): CallPrices {
    if (this.livePrices) return this.livePrices;
    const o = this.o.prices;
    return {
      cachedPrice: o?.cachedPrice ?? this.strategyOptions.cachedPrice,
      cacheWritePrice: o?.cacheWritePrice ?? this.strategyOptions.cacheWritePrice,
      ...(o?.reportedWritePrice !== undefined ? { reportedWritePrice: o.reportedWritePrice } : {}),
      outputPrice: o?.outputPrice ?? DEFAULT_OUTPUT_PRICE,
      ...(o?.longContext ? { longContext: o.longContext } : {}),
      ...(o?.minCachedTokens !== undefined ? { minCachedTokens: o.minCachedTokens } : {}),
      ...(o?.cacheIncrement !== undefined ? { cacheIncrement: o.cacheIncrement } : {}),
    };
  }

  /** Keeps changed settings for the next `apply`; later values win over earlier ones not yet applied. */
  reconfigure(update: LiveSettings): void {
    this.pending = { ...this.pending, ...update };
  }

  /** A fresh strategy of the current name, options and tokenizer: what it built so far is dropped. */
  renewStrategy(): void {
    this.strategy = this.makeStrategy(this.strategyName, this.strategyOptions, this.tokenizer);
  }

  /**
   * Takes up the pending settings; values equal to the current ones change nothing, so a strategy keeps its
   * state unless it really changes.
   */
  async apply(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const options = { ...this.strategyOptions, ...p.strategyOptions };
    const tokenizer = p.tokenizer ?? this.tokenizer;
    const name = p.strategy ?? this.strategyName;
    if (p.money !== undefined) this.money = p.money ?? undefined;
    if (p.prices && JSON.stringify(p.prices) !== JSON.stringify(this.accountant.relativePrices)) {
      this.livePrices = p.prices;
      this.accountant = this.accountant.carriedTo(this.tokenizer, p.prices);
    }
    const same =
      name === this.strategyName &&
      tokenizer.name === this.tokenizer.name &&
      JSON.stringify(options) === JSON.stringify(this.strategyOptions);
    if (!same) {
      // Built first: options no strategy accepts leave the current one in place (and end this run).
      const carried = name === this.strategyName ? this.strategy.snapshot?.() : undefined;
      this.strategy = this.makeStrategy(name, options, tokenizer);
      if (carried) this.strategy.restore?.(carried);
      this.strategyName = name;
      this.strategyOptions = options;
      this.tokenizer = tokenizer;
      this.accountant = this.accountant.carriedTo(tokenizer, this.prices());
      this.state().strategy = name;
    }
    if (p.budget && limitsKey(p.budget) !== this.budgetLimits) {
      this.budgetLimits = limitsKey(p.budget);
      await this.budget.setLimits(p.budget);
    }
  }
}

/** Budget limits compared by value (mode and limit per level). */
function limitsKey(l: BudgetLimits): string {
  return JSON.stringify([l.session ?? null, l.task ?? null, l.agent ?? null]);
}
