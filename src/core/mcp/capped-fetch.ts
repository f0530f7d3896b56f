// The fetch a streamable-HTTP MCP connection uses: no message from the server may exceed a limit (the one
// the SDK applies to stdio), so a broken or hostile server cannot fill the window's memory with one
// answer. A JSON (or error) body is one message; in an event stream each event is, up to its blank line,
// so a long-lived stream of small events is never cut.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { TooLargeError } from './errors';

const CR = 0x0d;
const LF = 0x0a;

/** Statuses whose response has no body, and redirects, which the SDK reads only for their headers. */
function passThrough(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304 || (status >= 300 && status < 400);
}

/**
 * Counts bytes since the start of the current message and errors the stream once they exceed `limit`.
 * `perEvent`: a blank line (LF LF, CR CR, CRLF CRLF, in any mix) starts a new message, as in SSE.
 */
export function messageLimitStream(
  limit: number,
  perEvent: boolean,
  onTooLarge: (e: TooLargeError) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let count = 0;
  let lineEnded = false; // the bytes so far end a line (a blank line follows if another ending comes)
  let afterCR = false; // the previous byte was CR (an LF after it belongs to the same line ending)
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0; // where the current message begins in this chunk
      let over = false;
      if (perEvent) {
        for (let i = 0; i < chunk.byteLength; i++) {
          const b = chunk[i]!;
          if (b === LF && afterCR) {
            afterCR = false;
            continue;
          }
          afterCR = b === CR;
          if (b !== CR && b !== LF) lineEnded = false;
          else if (!lineEnded) lineEnded = true;
          else {
            // A blank line: the event ends here.
            over ||= count + (i + 1 - start) > limit;
            count = 0;
            start = i + 1;
            lineEnded = false;
          }
        }
      }
      count += chunk.byteLength - start;
      if (over || count > limit) {
        const e = new TooLargeError(limit);
        onTooLarge(e);
        controller.error(e);
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** `inner` (the global fetch by default) with every response body limited per message. */
export function cappedFetch(limit: number, onTooLarge: (e: TooLargeError) => void, inner?: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await (inner ?? fetch)(url, init);
    if (!response.body || passThrough(response.status)) return response;
    const perEvent = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    const limited = new Response(response.body.pipeThrough(messageLimitStream(limit, perEvent, onTooLarge)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // The SDK names the URL a response came from in its messages; keep it.
    Object.defineProperty(limited, 'url', { value: response.url });
    return limited;
  };
}
