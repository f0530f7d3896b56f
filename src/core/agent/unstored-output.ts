// An output the store could not write (disk full, no permission) is still the model's only copy: it is
// kept in the context, but capped (head and tail), and the note says what was left out and why.
import type { LongOutputMeta, LongOutputPort } from './long-output';

/** At most this many characters of an unstored output stay in the context (half head, half tail). */
export const UNSTORED_KEEP_CHARS = 8 * 1024;

/** Head and tail of a text that arrives in pieces; memory stays bounded whatever the size. */
export class HeadTail {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly keep = UNSTORED_KEEP_CHARS) {}

  add(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const half = Math.floor(this.keep / 2);
    const room = half - this.head.length;
    if (room > 0) this.head += text.slice(0, room);
    // The tail holds only what the head did not take, so nothing is shown twice.
    const rest = room > 0 ? text.slice(room) : text;
    if (rest) this.tail = (this.tail + rest).slice(-half);
    this.total += text.length;
  }

  /** The kept text, and a note naming the reason when something was left out or not stored. */
  text(reason: string): string {
    const kept = this.head.length + this.tail.length;
    const cut = this.total - kept;
    const body = cut > 0 ? `${this.head}\n[... ${cut} characters left out ...]\n${this.tail}` : this.head + this.tail;
    const what =
      cut > 0
        ? `only the first ${this.head.length} and last ${this.tail.length} of its ${this.total} characters are kept`
        : 'it is kept here in full';
    return `${body}\n[Context Desk could not store this output (${reason}); ${what}]`;
  }
}

/** The capped text of an output `store` refused, with the note. */
export function unstoredText(output: string, error: unknown): string {
  const kept = new HeadTail();
  kept.add(output);
  return kept.text(errorText(error));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * `storeStream`, but a store that fails mid-way does not lose the output: the chunks are read on to
 * the end (the command still runs) and head and tail come back with the note. `failed` tells the caller
 * not to try storing the output again.
 */
export async function storeStreamKeeping(
  stream: NonNullable<LongOutputPort['storeStream']>,
  chunks: AsyncIterable<string | Uint8Array>,
  meta: LongOutputMeta,
  failed: () => void,
): Promise<{ text: string; storedAt?: string }> {
  const kept = new HeadTail();
  const source = chunks[Symbol.asyncIterator]();
  // The store's early exit must not close the source: what follows is still read below.
  const teed: AsyncIterable<string | Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const r = await source.next();
        if (!r.done) kept.add(r.value);
        return r;
      },
      return: () => Promise.resolve({ done: true as const, value: undefined }),
    }),
  };
  try {
    return await stream(teed, meta);
  } catch (e) {
    failed();
    for (let r = await source.next(); !r.done; r = await source.next()) kept.add(r.value);
    return { text: kept.text(errorText(e)) };
  }
}
