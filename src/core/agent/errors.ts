// Provider failures, classified so the loop knows what to retry and the panel what to tell the user.
import { clip, htmlPageText, jsonErrorMessage, readableErrorText } from './error-text';

export type ProviderErrorKind =
  'auth' | 'rate-limit' | 'server' | 'timeout' | 'context-overflow' | 'network' | 'bad-request' | 'aborted';

export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  /** What went wrong; it does not repeat `url` (the panel shows that once, beside it). */
  message: string;
  /** HTTP status, when there was one. */
  status?: number;
  /** From a `retry-after` / `retry-after-ms` header (429, 503). */
  retryAfterMs?: number;
  /** The URL the request was sent to, without credentials or query. */
  url?: string;
  /**
   * The request never reached a server (connection refused, unknown host, a refused TLS certificate):
   * kind `network`; retried at most once; neither counted as a call nor billed.
   */
  unreachable?: boolean;
}

export class ProviderError extends Error implements ProviderErrorInfo {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly url?: string;
  readonly unreachable?: boolean;

  constructor(info: ProviderErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'ProviderError';
    this.kind = info.kind;
    if (info.status !== undefined) this.status = info.status;
    if (info.retryAfterMs !== undefined) this.retryAfterMs = info.retryAfterMs;
    if (info.url !== undefined) this.url = info.url;
    if (info.unreachable) this.unreachable = true;
  }

  /** The same error, naming the URL it was sent to (kept when it already names one). */
  at(url: string | undefined): ProviderError {
    if (url === undefined || this.url !== undefined) return this;
    return new ProviderError({ ...this.toInfo(), url: displayUrl(url) }, { cause: this.cause });
  }

  toInfo(): ProviderErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(this.unreachable ? { unreachable: true } : {}),
    };
  }
}

/** A URL as errors show it: user name, password, query and fragment (where keys hide) left out. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}

// Node's and undici's codes for a connection that never got to a server. Resets and timeouts after
// connecting are not here: those requests may have reached it.
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS failure)',
  EAI_NONAME: 'the host name does not resolve',
  EAI_FAIL: 'the host name could not be resolved (DNS failure)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EADDRNOTAVAIL: 'the address is not available',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate could not be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host",
};

/**
 * Why a request never reached a server, from the error's cause chain (fetch wraps the socket error,
 * the SDKs wrap fetch's), or undefined when it may have reached one.
 */
export function unreachableReason(e: unknown): { code: string; reason: string } | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [e];
  while (queue.length > 0 && seen.size < 20) {
    const x = queue.shift();
    if (typeof x !== 'object' || x === null || seen.has(x)) continue;
    seen.add(x);
    const o = x as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === 'string' && UNREACHABLE[o.code]) return { code: o.code, reason: UNREACHABLE[o.code]! };
    // fetch refuses ports browsers block (e.g. 1, 9, 6000) and URLs with credentials before connecting.
    if (o.message === 'bad port') return { code: 'bad port', reason: 'fetch refuses to connect to this port' };
    if (typeof o.message === 'string' && /URL that includes credentials/.test(o.message))
      return { code: 'credentials in URL', reason: 'a URL with a user name or password cannot be requested' };
    queue.push(o.cause);
    if (Array.isArray(o.errors)) queue.push(...(o.errors as unknown[]));
  }
  return undefined;
}

/** A connection failure of any provider as a classified error: `unreachable` when nothing was sent. */
export function connectionError(e: unknown, fallback: string): ProviderError {
  const why = unreachableReason(e);
  if (!why) return new ProviderError({ kind: 'network', message: fallback }, { cause: e });
  return new ProviderError(
    {
      kind: 'network',
      unreachable: true,
      message: `Could not connect to the provider: ${why.reason} (${why.code}); check the base URL and that the server runs`,
    },
    { cause: e },
  );
}

/**
 * A stream that closed before its end marker (a proxy's timeout, a dropped connection): the answer is
 * cut, so it is a transient network failure (retried), never a complete answer.
 */
export function streamEndedEarly(missing: string): ProviderError {
  return new ProviderError({
    kind: 'network',
    message: `The stream ended early: the connection closed before the answer was complete (no ${missing})`,
  });
}

/**
 * A 200 answer whose body is no event stream (`contentType`, the body's first characters in `head`): not
 * retried, since the same request gets the same page.
 */
export function notAnEventStream(contentType: string, head: string): ProviderError {
  const type = contentType.split(';')[0]!.trim() || 'no content type';
  const page = htmlPageText(head);
  let said: string;
  if (page !== undefined) said = `an HTML page ("${page}")`;
  else if (/json/i.test(type) || /^\s*[{[]/.test(head)) {
    const error = jsonErrorMessage(head);
    said = error
      ? `an error in JSON ("${clip(error)}")`
      : 'one JSON document: the server does not stream its answers (it ignores "stream": true)';
  } else said = head.trim() ? `"${clip(head.trim().replace(/\s+/g, ' '))}"` : 'an empty body';
  return new ProviderError({
    kind: 'bad-request',
    message:
      `The provider answered with ${type}, not an event stream: ${said}. The base URL may lead to a web page ` +
      'or a proxy that asks to sign in rather than to the API (which often ends in /v1)',
  });
}

const OVERFLOW_RE =
  /context[ _-]?length|maximum context|context window|too many tokens|prompt is too long|exceeds? the (?:model'?s? )?(?:max|context)/i;

/** Whether a provider's error text says the request is over the model's context window. */
export function saysOverflow(message: string): boolean {
  return OVERFLOW_RE.test(message);
}

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
export function classifyHttpError(status: number, message: string, retryAfterMs?: number, url?: string): ProviderError {
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
    message: `${describeKind(kind)} (HTTP ${status}): ${readableErrorText(message)}`,
    status,
    // A 503 may say when to come back, like a 429.
    ...((kind === 'rate-limit' || status === 503) && retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(url !== undefined ? { url: displayUrl(url) } : {}),
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

/** Any failure of a call as a ProviderError (one that is not is taken for a network failure). */
export function asProviderError(e: unknown): ProviderError {
  return e instanceof ProviderError ? e : new ProviderError({ kind: 'network', message: String(e) }, { cause: e });
}
