// Token counts per message object, cached so replay never re-counts history it has already seen.
import type { Message, Tokenizer } from '../messages';

export type MessageCounter = (m: Message) => number;

export function messageCounter(tokenizer: Tokenizer): MessageCounter {
  const cache = new WeakMap<Message, number>();
  return (m) => {
    let n = cache.get(m);
    if (n === undefined) {
      n = tokenizer.countMessage(m);
      cache.set(m, n);
    }
    return n;
  };
}

export function sumTokens(messages: readonly Message[], count: MessageCounter): number {
  let total = 0;
  for (const m of messages) total += count(m);
  return total;
}

/**
 * Output tokens of an answer the provider did not size: its text and tool calls, without the framing every
 * message carries (the provider bills what the model wrote). One count for replay and the live estimate.
 */
export function answerTokens(answer: Message, count: (m: Message) => number): number {
  return Math.max(0, count(answer) - count({ role: 'assistant', content: '' }));
}
