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
