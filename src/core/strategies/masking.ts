// `masking` (LastNObservations, M = 10): observations older than the last M turns become
// `Old environment output: (N lines omitted)`; `polling` k moves the boundary only every k turns.
// When the context would not fit the window, older turns are masked too (never the latest, unless a person
// spoke after it: see maskableTurns).
import { splitTurns, type Message } from '../messages';
import { boundaryToFit, maskedResult, maskedViewSizer, maskTurns, publishedMaskedTurns } from './mask-turns';
import { messageCounter } from '../cost/message-tokens';
import {
  DEFAULT_STRATEGY_OPTIONS,
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type StrategyDeps,
  type StrategyOptions,
} from './types';

export function createMaskingStrategy(
  deps: Pick<StrategyDeps, 'tokenizer'>,
  options: Pick<StrategyOptions, 'window' | 'polling'> & Partial<Pick<StrategyOptions, 'contextWindow'>>,
): ContextStrategy {
  const count = messageCounter(deps.tokenizer);
  const contextWindow = options.contextWindow ?? DEFAULT_STRATEGY_OPTIONS.contextWindow;
  const sizeOf = maskedViewSizer(count);
  return {
    name: 'masking',
    build(history: readonly Message[], buildOptions?: BuildOptions): Promise<ContextResult> {
      const split = splitTurns(history);
      const window = usableWindow(contextWindow, buildOptions);
      let boundary = publishedMaskedTurns(split.turns.length, options.window, options.polling);
      const published = boundary;
      let size = sizeOf(history, split, boundary);
      if (size > window) {
        boundary = boundaryToFit(history, split, published, size, window, count);
        size = sizeOf(history, split, boundary);
      }
      // An output whose full text has no file is masked only when nothing else fits (mask-turns.ts).
      const force = size > window;
      if (force) {
        size = sizeOf(history, split, published, true);
        boundary = boundaryToFit(history, split, published, size, window, count, true);
        size = sizeOf(history, split, boundary, true);
      }
      const view = maskTurns(history, split, 0, boundary, count, force);
      return maskedResult(view, size, window);
    },
  };
}
