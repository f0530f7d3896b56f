// How an Anthropic stream fails after its 200 answer: an `error` event, whose `error.type` says what went
// wrong (overloaded, rate limited, a prompt over the window...), or an event whose data is not JSON. Each
// becomes the ProviderError its cause calls for, in words: the SDK's own error is one kind for all ('server',
// retried even when the request itself was refused) and quotes the event's raw JSON.
import { ProviderError, describeKind, saysOverflow, type ProviderErrorKind } from '../agent/errors';
import { clip } from '../agent/error-text';

/** Anthropic's error types (https://docs.anthropic.com/en/api/errors) by the kind of failure they are. */
const KINDS: Record<string, ProviderErrorKind> = {
  overloaded_error: 'server',
  api_error: 'server',
  rate_limit_error: 'rate-limit',
  timeout_error: 'timeout',
  request_too_large: 'context-overflow',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'bad-request',
  not_found_error: 'bad-request',
  invalid_request_error: 'bad-request',
};

/** An `error` event: `type` from the SDK's error, `body` its data (parsed JSON, or the text as sent). */
export function streamErrorEvent(type: string | null | undefined, body: unknown): ProviderError {
  const inner = isObject(body) && isObject(body.error) ? body.error : undefined;
  const text =
    typeof inner?.message === 'string' ? inner.message : typeof body === 'string' ? body : JSON.stringify(body ?? null);
  const name = type ?? (typeof inner?.type === 'string' ? inner.type : undefined);
  // An unknown or missing type is taken for a passing server failure, as the SDK did (retried).
  let kind: ProviderErrorKind = (name !== undefined && KINDS[name]) || 'server';
  if (kind === 'bad-request' && saysOverflow(text)) kind = 'context-overflow';
  return new ProviderError({
    kind,
    message: `${describeKind(kind)} (mid-answer, ${name ?? 'an error event'}): ${clip(text.trim() || '(no message)')}`,
  });
}

/** An event whose data is not JSON: the answer cannot be read on, and a resend may stream clean. */
export function malformedEvent(e: SyntaxError): ProviderError {
  return new ProviderError(
    {
      kind: 'server',
      message: `The provider sent a stream event that is not valid JSON (${e.message}); the answer was cut there`,
    },
    { cause: e },
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
