// Which failures are retried, how long to wait, and which retries go through retry filtering.
//
// A transient failure (network, timeout, 5xx, 429) says nothing about the request: the same context is
// sent again after a backoff (a 429's or 503's Retry-After honoured). Only a context overflow and an
// invalid tool call say the request itself was wrong: their retry drops tool traffic (retry filtering)
// and tells the model why. A server that cannot be reached at all is tried once more, not more.
import type { ProviderErrorInfo } from './errors';

export interface RetryPolicy {
  /** Resends after transient failures (429, 5xx, timeouts, network errors once connected). */
  maxRetries: number;
  /** Resends when no server could be reached (connection refused, DNS failure). */
  maxUnreachableRetries: number;
  /** Filtered retries when the model returns a malformed tool call (bad JSON, unknown tool). */
  maxInvalidToolCallRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest Retry-After waited out. A longer one is not retried: resending early only meets the same
   * refusal, so the run stops and says when to come back.
   */
  retryAfterCapMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxUnreachableRetries: 1,
  maxInvalidToolCallRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  retryAfterCapMs: 60_000,
};

/** Retries of one model call so far, by cause. */
export interface RetryCounts {
  transient: number;
  unreachable: number;
  overflow: number;
}

export interface RetryPlan {
  /** Which count this retry uses. */
  counts: keyof RetryCounts;
  delayMs: number;
  /** Send it through retry filtering, with this corrective note. */
  filterNote?: string;
}

export const OVERFLOW_NOTE =
  "Note: the previous request was larger than the model's context window, so earlier tool calls and their " +
  'results are left out of this one (the line above names the tools already used). Continue from there; ' +
  'read only what you still need, in small ranges.';

/** The corrective note of a retry after invalid tool calls (`problems`: one short phrase each). */
export function invalidToolCallNote(problems: readonly string[]): string {
  const what = problems.map((p) => (p.length > 120 ? `${p.slice(0, 119)}…` : p)).join('; ');
  return (
    `Note: your previous reply had an invalid tool call (${what}). Earlier tool calls and their results are ` +
    'left out of this retry (the line above names the tools already used). Call only the tools you are ' +
    'offered, with arguments that are one valid JSON object.'
  );
}

/** How to retry after `error`, or undefined when it is not retried. */
export function planRetry(error: ProviderErrorInfo, tried: RetryCounts, policy: RetryPolicy): RetryPlan | undefined {
  const backoff = (n: number): number => Math.min(policy.baseDelayMs * 2 ** n, policy.maxDelayMs);
  switch (error.kind) {
    case 'context-overflow':
      // Waiting does not shrink the request; only the filtered resend can help, and only once.
      return tried.overflow === 0 ? { counts: 'overflow', delayMs: 0, filterNote: OVERFLOW_NOTE } : undefined;
    case 'network':
      if (error.unreachable)
        return tried.unreachable < policy.maxUnreachableRetries
          ? { counts: 'unreachable', delayMs: backoff(tried.unreachable) }
          : undefined;
      return transient();
    case 'rate-limit':
    case 'server':
    case 'timeout':
      return transient();
    default:
      return undefined;
  }

  function transient(): RetryPlan | undefined {
    if (tried.transient >= policy.maxRetries) return undefined;
    if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.retryAfterCapMs) return undefined;
    return { counts: 'transient', delayMs: error.retryAfterMs ?? backoff(tried.transient) };
  }
}
