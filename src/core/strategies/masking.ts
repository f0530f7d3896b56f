// `masking` (LastNObservations, M = 10): observations older than the last M turns become
// `Old environment output: (N lines omitted)`; `polling` k moves the boundary only every k turns.
import { splitTurns, type Message } from '../messages';
import { maskTurns, publishedMaskedTurns } from './mask-turns';
import type { ContextResult, ContextStrategy, StrategyOptions } from './types';

export function createMaskingStrategy(options: Pick<StrategyOptions, 'window' | 'polling'>): ContextStrategy {
  return {
    name: 'masking',
    build(history: readonly Message[]): Promise<ContextResult> {
      const split = splitTurns(history);
      const boundary = publishedMaskedTurns(split.turns.length, options.window, options.polling);
      const { messages, masked } = maskTurns(history, split, 0, boundary);
      return Promise.resolve({ messages, masked, summaries: [], summarizedTurns: 0 });
    },
  };
}
