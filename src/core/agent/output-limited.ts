// A provider that cannot be given an output limit (VS Code's language models take none) is held to it
// here: the stream is left once our count of the answer, scaled as the budget counts it, reaches the
// limit, and the answer ends as one the limit cut (`length`), so a budget's cut rules apply to it as to
// any provider's. Without this, one long answer under a hard budget went past the limit.
import type { ChatStreamEvent } from './provider';

/**
 * `stream` until `count` (tokens of a text delta, as the budget counts them) adds up to `limit`; then a
 * `length` finish, and the stream is returned (the provider stops reading). Tool calls that come after
 * the cut are not taken: a cut answer's calls are not run.
 */
export async function* outputLimited(
  stream: AsyncIterable<ChatStreamEvent>,
  limit: number,
  count: (text: string) => number,
): AsyncIterable<ChatStreamEvent> {
  let used = 0;
  for await (const event of stream) {
    yield event;
    if (event.type !== 'text-delta') continue;
    used += count(event.text);
    if (used >= limit) {
      yield { type: 'finish', reason: 'length' };
      return;
    }
  }
}
