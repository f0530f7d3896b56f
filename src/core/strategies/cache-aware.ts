// `cache-aware` (ours, the default): masking whose boundary moves only when it pays.
//
// Providers bill a cached prompt prefix at `cachedPrice` x the uncached price. Moving the mask boundary
// rewrites an early message, so every later token of that call is billed as a cache write. Ski rental:
// keep the boundary fixed and add up the regret, i.e. what the still-verbatim maskable observations
// cost on each call (cachedPrice x the tokens masking would save). Once the regret reaches the one-off
// price of breaking the prefix (suffix tokens x (cacheWritePrice - cachedPrice)), mask everything older
// than the last M turns. With no cache (cachedPrice = 1, writes at 1) breaking is free and this is
// plain masking; with a free cache it never masks unless the context window forces it.
import { splitTurns, type Message, type SplitTrajectory } from '../messages';
import { messageCounter, sumTokens } from '../cost/message-tokens';
import { maskableTurns, maskedResult, maskTurns, maskingSavings } from './mask-turns';
import {
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type StrategyDeps,
  type StrategyOptions,
} from './types';

export interface CacheAwareTuning {
  /**
   * Move when regret >= alpha x the break cost. 1 is classic ski rental; 0.5 was best on the 62 shared
   * SWE-bench trajectories at every cached price (0.25 to 1 also beat the best fixed polling there).
   */
  alpha: number;
}

export const DEFAULT_CACHE_AWARE_TUNING: CacheAwareTuning = { alpha: 0.5 };

function firstObservation(split: SplitTrajectory, from: number, to: number): number | undefined {
  for (let t = from; t < to; t++) {
    const first = split.turns[t]!.observationIndices[0];
    if (first !== undefined) return first;
  }
  return undefined;
}

export function createCacheAwareStrategy(
  deps: Pick<StrategyDeps, 'tokenizer'>,
  options: Pick<StrategyOptions, 'window' | 'cachedPrice' | 'cacheWritePrice' | 'contextWindow'>,
  tuning: CacheAwareTuning = DEFAULT_CACHE_AWARE_TUNING,
): ContextStrategy {
  const count = messageCounter(deps.tokenizer);
  let boundary = 0; // turns whose observations are masked; only grows
  let regret = 0;
  let previousLength = 0; // messages in the previous request (positions match the history 1:1)

  return {
    name: 'cache-aware',
    snapshot: () => ({ strategy: 'cache-aware', boundary, regret, previousLength }),
    restore(state) {
      if (state.strategy !== 'cache-aware') return;
      ({ boundary, regret, previousLength } = state);
    },
    build(history: readonly Message[], buildOptions?: BuildOptions): Promise<ContextResult> {
      const split = splitTurns(history);
      const turns = split.turns.length;
      const target = Math.max(boundary, turns - options.window);
      if (target > boundary) {
        const changed = firstObservation(split, boundary, target);
        if (changed === undefined)
          boundary = target; // nothing to mask: moving is free
        else {
          regret += options.cachedPrice * maskingSavings(history, split, boundary, target, count);
          const proposed = maskTurns(history, split, 0, target, count).messages;
          const suffix = changed < previousLength ? sumTokens(proposed.slice(changed, previousLength), count) : 0;
          const breakCost = suffix * (options.cacheWritePrice - options.cachedPrice);
          if (regret >= tuning.alpha * breakCost) {
            boundary = target;
            regret = 0;
          }
        }
      }
      let view = maskTurns(history, split, 0, boundary, count);
      // The call must fit the window: move now, past the last M turns if need be (see maskableTurns).
      const window = usableWindow(options.contextWindow, buildOptions);
      const end = maskableTurns(split);
      let size = sumTokens(view.messages, count);
      while (size > window && boundary < end) {
        boundary = Math.max(boundary + 1, Math.min(end, turns - options.window));
        regret = 0;
        view = maskTurns(history, split, 0, boundary, count);
        size = sumTokens(view.messages, count);
      }
      // An output whose full text has no file is masked only when nothing else fits (mask-turns.ts).
      if (size > window) {
        view = maskTurns(history, split, 0, boundary, count, true);
        size = sumTokens(view.messages, count);
      }
      previousLength = history.length;
      return maskedResult(view, size, window);
    },
  };
}
