// A person's instructions inside history that a strategy folds into a summary (summary, hybrid,
// sliding-window) stay verbatim beside the summary. Only when they alone would overflow the context window
// do the older ones go into the summary, which then says so; the task and the latest instruction never do.
import type { Message, Origin } from '../messages';
import type { MessageCounter } from '../cost/message-tokens';

export interface KeptInstructions {
  /** Indices (ascending) of the instructions sent verbatim. */
  kept: number[];
  /** How many were left to the summary because the context window was full. */
  summarised: number;
}

/**
 * Chooses which of `candidates` (indices into `history`, ascending) stay verbatim when `spare` tokens are
 * left in the window for them. The oldest go first; the first and the last person message of the whole
 * history (the task and the latest instruction) are always kept.
 */
export function fitInstructions(
  candidates: readonly number[],
  history: readonly Message[],
  origins: readonly (Origin | undefined)[],
  spare: number,
  count: MessageCounter,
): KeptInstructions {
  const first = origins.indexOf('person');
  const last = origins.lastIndexOf('person');
  let kept = candidates.slice();
  let total = kept.reduce((n, i) => n + count(history[i]!), 0);
  let summarised = 0;
  for (const i of candidates) {
    if (total <= spare) break;
    if (i === first || i === last) continue;
    kept = kept.filter((k) => k !== i);
    total -= count(history[i]!);
    summarised++;
  }
  return { kept, summarised };
}

/** The sentence a summary carries when it stands for instructions it could not keep verbatim. */
export function summarisedInstructionsNote(summarised: number): string {
  if (summarised === 0) return '';
  const what = summarised === 1 ? '1 earlier user instruction' : `${summarised} earlier user instructions`;
  return ` (it also stands for ${what}, summarised because the context window was full)`;
}

/** One message object per distinct text, so repeated calls send (and count) the very same message. */
export function internedMessages(make: (content: string) => Message): (content: string) => Message {
  let last: Message | undefined;
  return (content) => {
    if (last?.content !== content) last = make(content);
    return last;
  };
}
