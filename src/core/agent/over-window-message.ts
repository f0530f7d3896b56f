// The stop message when a call is not sent because even the strategy's smallest context is over the
// model's window: what needs how much, and what the person can do about it.
import type { WindowOverflow } from '../strategies/types';
import { formatCount } from '../numbers';

/** True when the context would fit without the person's message just sent (`latest` tokens). */
export function latestIsTheCause(o: WindowOverflow, latest: number | undefined): latest is number {
  return latest !== undefined && o.tokens - latest <= o.window;
}

/**
 * Why a call was not sent: even the strategy's smallest context is over the window. `latest`: the tokens of
 * the person's message just sent, when it is the last one. `whole`: the strategy (raw) sends every message
 * as it is, so masking or summarizing would help.
 */
export function overWindowMessage(o: WindowOverflow, latest?: number, whole = false): string {
  const n = (v: number): string => formatCount(v);
  const how = whole
    ? 'sent whole (the raw strategy)'
    : o.summaryFailed !== undefined
      ? 'without a new summary of the older turns'
      : 'even with the older turns masked or summarized';
  const head =
    `The context does not fit the model's window: ${how} it needs ` +
    `${n(o.tokens)} tokens, and the window leaves ${n(o.window)} (the context window setting less the tool ` +
    'definitions). ';
  // Without it the context would fit: the message is the cause, and the session sets it aside (set-aside.ts).
  if (latestIsTheCause(o, latest))
    return (
      head +
      `Your message alone needs ${n(latest)} tokens and is never cut or summarized: it was not sent, and it is ` +
      'left out of this chat, so your next message goes on without it. Send it shorter, or save the text to a ' +
      'file in the workspace and ask the agent to read it (or raise the context window if the model allows more).'
    );
  if (o.summaryFailed !== undefined)
    return (
      head +
      `Summarizing the older turns failed (${o.summaryFailed}), so they could not be folded. Send a message ` +
      'to try summarizing again, raise the context window if the model allows more, or start a new chat.'
    );
  if (whole)
    return (
      head +
      'Pick a strategy that masks or summarizes older turns (cache-aware, hybrid), raise the context window ' +
      'if the model allows more, or start a new chat.'
    );
  return (
    head +
    'Your messages and the latest turn are kept whole, so they alone are too large: raise the context window ' +
    'if the model allows more, pick a strategy that summarizes (hybrid, summary), or start a new chat.'
  );
}
