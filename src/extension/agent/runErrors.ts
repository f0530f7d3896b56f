// What the panel says when a run fails: one sentence naming the URL that was tried and the fix, and the
// button that leads to it. Pure (no VS Code calls).
import type { ProviderErrorInfo, ProviderErrorKind } from '../../core/agent/errors';
import type { NoticeAction } from '../../protocol/chat';

const SETUP: NoticeAction = { label: 'Open setup', action: 'configure' };
const LOG: NoticeAction = { label: 'Show Log', action: 'showLog' };

/** The URL of a failure: the one the error carries (core providers name it), else the configured endpoint. */
export function failedUrl(error: ProviderErrorInfo, endpoint: string | undefined): string | undefined {
  const carried = (error as ProviderErrorInfo & { url?: unknown }).url;
  return typeof carried === 'string' && carried !== '' ? carried : endpoint;
}

export function describeRunError(
  error: ProviderErrorInfo,
  endpoint: string | undefined,
): { text: string; action: NoticeAction } {
  const url = failedUrl(error, endpoint);
  const at = url ? ` at ${url}` : '';
  const detail = error.message;
  const comeBack = error.retryAfterMs !== undefined ? `It asks to wait ${waitText(error.retryAfterMs)}` : undefined;
  const text: Record<ProviderErrorKind, string> = {
    auth: `The provider${at} refused the API key (${detail}). Enter a valid key in the setup form.`,
    'rate-limit': `The provider${at} is rate limiting (${detail}). ${comeBack ?? 'Wait a moment'} and send again.`,
    'context-overflow': `The request did not fit the model's context window (${detail}). Try the masking or hybrid strategy, or a model with a larger window.`,
    network: error.unreachable
      ? `Could not reach the model endpoint${at} (${detail}). Start the server, or correct the base URL in the setup form.`
      : // A server answered, then the connection broke (a reset, a stream cut before its end).
        `The connection to the model endpoint${at} broke off (${detail}). It may be temporary: send again.`,
    timeout: `The model${at} did not answer in time (${detail}). Send again, or check the server.`,
    server: `The provider${at} failed (${detail}). ${comeBack ? `${comeBack} and send again.` : 'It may be temporary: send again.'}`,
    'bad-request': `The provider${at} rejected the request (${detail}). Check the model name and the base URL in the setup form.`,
    aborted: 'Stopped.',
  };
  const setup =
    error.kind === 'auth' || (error.kind === 'network' && error.unreachable) || error.kind === 'bad-request';
  const action = setup ? SETUP : LOG;
  return { text: text[error.kind] ?? detail, action };
}

/** A Retry-After as a person reads it: "about 2 minutes", "about 1 hour". */
function waitText(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  const [n, unit] = s < 90 ? [s, 'second'] : s < 3570 ? [Math.round(s / 60), 'minute'] : [Math.round(s / 3600), 'hour'];
  return `about ${n} ${unit}${n === 1 ? '' : 's'}`;
}

const REASON: Partial<Record<string, string>> = {
  network: 'the endpoint could not be reached',
  'rate-limit': 'the provider is rate limiting',
  server: 'the provider had a server error',
  timeout: 'the model did not answer in time',
  'context-overflow': 'the request did not fit the window',
};

/** The quiet status line while the loop waits to retry (`attempt` counts the failures so far). */
export function retryActivity(attempt: number, reason: string, delayMs: number, filtered: boolean): string {
  const wait = delayMs >= 1000 ? ` in ${Math.round(delayMs / 1000)} s` : '';
  return `Retrying${wait} (attempt ${attempt + 1}): ${REASON[reason] ?? reason}${filtered ? '; tool traffic filtered' : ''}…`;
}
