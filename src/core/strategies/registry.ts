// One place that turns a strategy name into a fresh, per-conversation strategy.
import { createCacheAwareStrategy } from './cache-aware';
import { createHybridStrategy } from './hybrid';
import { createMaskingStrategy } from './masking';
import { createRawStrategy } from './raw';
import { createRetryFilterStrategy } from './retry-filter';
import { createSlidingWindowStrategy } from './sliding-window';
import { createSummaryStrategy } from './summary';
import {
  validateStrategyOptions,
  type ContextStrategy,
  type StrategyDeps,
  type StrategyName,
  type StrategyOptions,
} from './types';

export function createStrategy(name: StrategyName, deps: StrategyDeps, options: StrategyOptions): ContextStrategy {
  validateStrategyOptions(options);
  switch (name) {
    case 'raw':
      return createRawStrategy(deps, options);
    case 'masking':
      return createMaskingStrategy(deps, options);
    case 'summary':
      return createSummaryStrategy(deps, options);
    case 'hybrid':
      return createHybridStrategy(deps, options);
    case 'retry-filter':
      return createRetryFilterStrategy();
    case 'sliding-window':
      return createSlidingWindowStrategy(deps, options);
    case 'cache-aware':
      return createCacheAwareStrategy(deps, options);
    default: {
      const unknown: never = name;
      throw new RangeError(`Unknown strategy "${String(unknown)}"`);
    }
  }
}
