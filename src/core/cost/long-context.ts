// Long-context pricing: over a threshold of prompt tokens a provider bills the whole request at a higher
// tier (Anthropic's Sonnet 4 / 4.5 over 200k). The tier is chosen per request, from its prompt size.
import type { RelativePrices } from './pricing';
import type { ModelPrice } from './prices';

/** A long-context tier relative to the standard uncached input price (the unit). */
export interface LongContextPrices {
  /** Prompt tokens (cache reads and writes included) over which the whole request is billed at the tier. */
  above: number;
  inputPrice: number;
  outputPrice: number;
}

/** A price entry's long-context tier in units (the standard uncached input price is 1). */
export function longContextOf(p: ModelPrice): LongContextPrices {
  const l = p.longContext!;
  return { above: l.above, inputPrice: l.input / p.input, outputPrice: l.output / p.input };
}

/**
 * The prices one request is billed at: its long-context tier's when the prompt is over the tier's
 * threshold (every token of it, cache reads and writes at the same multiples of the tier's input price).
 */
export function pricesAt(
  p: RelativePrices & { longContext?: LongContextPrices },
  promptTokens: number,
): RelativePrices {
  const base = {
    cachedPrice: p.cachedPrice,
    cacheWritePrice: p.cacheWritePrice,
    ...(p.reportedWritePrice !== undefined ? { reportedWritePrice: p.reportedWritePrice } : {}),
    outputPrice: p.outputPrice,
    ...(p.inputPrice !== undefined ? { inputPrice: p.inputPrice } : {}),
  };
  const l = p.longContext;
  if (!l || !(promptTokens > l.above)) return base;
  return {
    cachedPrice: p.cachedPrice * l.inputPrice,
    cacheWritePrice: p.cacheWritePrice * l.inputPrice,
    ...(p.reportedWritePrice !== undefined ? { reportedWritePrice: p.reportedWritePrice * l.inputPrice } : {}),
    outputPrice: l.outputPrice,
    inputPrice: l.inputPrice,
  };
}
