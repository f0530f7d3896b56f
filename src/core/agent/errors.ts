// Provider failures, classified so the loop knows what to retry and the panel what to tell the user.

export type ProviderErrorKind =
  'auth' | 'rate-limit' | 'server' | 'timeout' | 'context-overflow' | 'network' | 'bad-request' | 'aborted';

export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  message: string;
  /** HTTP status, when there was one. */
  status?: number;
  /** From a 429's `retry-after` / `retry-after-ms` header. */
  retryAfterMs?: number;
}

export class ProviderError extends Error implements ProviderErrorInfo {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(info: ProviderErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'ProviderError';
    this.kind = info.kind;
    if (info.status !== undefined) this.status = info.status;
    if (info.retryAfterMs !== undefined) this.retryAfterMs = info.retryAfterMs;
  }

  toInfo(): ProviderErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
    };
  }
}

const OVERFLOW_RE =
  /context[ _-]?length|maximum context|context window|too many tokens|prompt is too long|exceeds? the (?:model'?s? )?(?:max|context)/i;

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date (RFC 9110). */
export function parseRetryAfter(
  get: (name: string) => string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Classifies an HTTP failure by status and message (shared by every HTTP provider). */
export function classifyHttpError(status: number, message: string, retryAfterMs?: number): ProviderError {
  let kind: ProviderErrorKind;
  if (status === 401 || status === 403) kind = 'auth';
  else if (status === 429) kind = 'rate-limit';
  else if (status === 408 || status === 504) kind = 'timeout';
  else if (status === 413 || ((status === 400 || status === 422) && OVERFLOW_RE.test(message)))
    kind = 'context-overflow';
  else if (status >= 500) kind = 'server';
  else kind = 'bad-request';
  return new ProviderError({
    kind,
    message: `${describeKind(kind)} (HTTP ${status}): ${message}`,
    status,
    ...(kind === 'rate-limit' && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/** A short, actionable sentence per kind, for the panel. */
export function describeKind(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'auth':
      return 'The provider refused the API key; set it with "Context Desk: Set API Key"';
    case 'rate-limit':
      return 'The provider is rate limiting requests';
    case 'server':
      return 'The provider had a server error';
    case 'timeout':
      return 'The provider did not answer in time';
    case 'context-overflow':
      return "The request is larger than the model's context window";
    case 'network':
      return 'Could not reach the provider; check the base URL and that the server runs';
    case 'bad-request':
      return 'The provider rejected the request';
    case 'aborted':
      return 'Stopped';
  }
}

export function isAbortError(e: unknown): boolean {
  return (
    (e instanceof ProviderError && e.kind === 'aborted') ||
    (e instanceof Error && (e.name === 'AbortError' || e.name === 'APIUserAbortError'))
  );
}
