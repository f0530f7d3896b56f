// A person's message that alone puts the context over the model's window is never cut or summarized, so
// kept in the conversation it would stop every later message too. It is set aside instead: taken out of
// the conversation (the model never saw it), and the host is told so its history file leaves it out of a
// resume. The person is told in the stop message (over-window-message.ts).
import type { Message, Tokenizer } from '../messages';
import type { WindowOverflow } from '../strategies/types';
import { latestIsTheCause, overWindowMessage } from './over-window-message';

export interface OverWindowStop {
  message: string;
  /** The person's message was taken out of `messages`: the strategy's state from before the build holds. */
  setAside: boolean;
}

/**
 * The stop for a call over the window. `messages`: the session's conversation, which lost its last message
 * when `setAside`; `whole`: the strategy sends every message as it is (raw).
 */
export function overWindowStop(
  overflow: WindowOverflow,
  messages: Message[],
  d: { tokenizer: Tokenizer; whole: boolean; onSetAside: (message: Message, index: number) => void },
): OverWindowStop {
  const latest = messages.at(-1);
  const said = latest?.origin === 'person' ? d.tokenizer.countMessage(latest) : undefined;
  const message = overWindowMessage(overflow, said, d.whole);
  if (!latest || !latestIsTheCause(overflow, said)) return { message, setAside: false };
  messages.pop();
  d.onSetAside(latest, messages.length);
  return { message, setAside: true };
}
