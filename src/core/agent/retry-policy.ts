// Which failures are retried, how long to wait, and which retries drop tool traffic (retry filtering).
import type { ProviderError, ProviderErrorKind } from './errors';

export interface RetryPolicy {
  /** Retries of a failed provider call (429, 5xx, timeouts, network, context overflow). */
  maxRetries: number;
  /** Retries when the model returns a malformed tool call (bad JSON, unknown tool). */
  maxInvalidToolCallRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A 429's retry-after is honoured up to this. */
  retryAfterCapMs: number;
  /** Failures whose retry is sent through the retry filter. A 429 is about pace, not content: resent as is. */
  filterOn: readonly ProviderErrorKind[];
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxInvalidToolCallRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  retryAfterCapMs: 30_000,
  filterOn: ['server', 'timeout', 'network', 'context-overflow'],
};

const RETRYABLE = new Set<ProviderErrorKind>(['rate-limit', 'server', 'timeout', 'network', 'context-overflow']);

/** Delay before retry number `attempt` (0-based), or undefined when the error is not retried. */
export function retryDelay(error: ProviderError, attempt: number, policy: RetryPolicy): number | undefined {
  if (!RETRYABLE.has(error.kind) || attempt >= policy.maxRetries) return undefined;
  // An overflow is not cured by waiting; only the filtered resend can help, and only once.
  if (error.kind === 'context-overflow') return attempt === 0 ? 0 : undefined;
  if (error.kind === 'rate-limit' && error.retryAfterMs !== undefined)
    return Math.min(error.retryAfterMs, policy.retryAfterCapMs);
  return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
}
