// Whether an OpenAI-style event stream carried its closing `data: [DONE]` line. The openai SDK reads that
// line and hides it, yet a server that ends with it but sends no finish_reason (some local servers) has
// ended properly. This fetch passes the body on unchanged and notes the line for the call that made the
// request, found through the async context (one client serves every call of a provider).
import { AsyncLocalStorage } from 'node:async_hooks';
import { notAnEventStream, streamEndedEarly, type ProviderError } from '../agent/errors';

export interface EndWatch {
  sawDone: boolean;
  /** A 200 answer's content type and first characters: an answer that is no stream is said as what it is. */
  contentType?: string;
  head?: string;
}

/** Characters of a body kept in `EndWatch.head`. */
const HEAD_CHARS = 4_096;

const watching = new AsyncLocalStorage<EndWatch>();
const DONE_LINE = /^data: ?\[DONE\]/;
/** The start of an unfinished line that is kept: enough to tell a `data: [DONE]` line. */
const LINE_START = 32;

/** Runs `start` (which sends the request) so that the response it gets reports to `watch`. */
export function watchingEnd<T>(watch: EndWatch, start: () => T): T {
  return watching.run(watch, start);
}

/** A fetch for the SDK client: responses of requests started by `watchingEnd` report their `[DONE]`. */
export function endWatchingFetch(): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const watch = watching.getStore();
    if (!watch || !response.ok || !response.body) return response;
    watch.contentType = response.headers.get('content-type') ?? '';
    watch.head = '';
    const decoder = new TextDecoder();
    let line = '';
    const see = (text: string, last: boolean): void => {
      if (watch.head!.length < HEAD_CHARS) watch.head += text.slice(0, HEAD_CHARS - watch.head!.length);
      const lines = (line + text).split(/\r\n|\r|\n/);
      line = last ? '' : lines.pop()!.slice(0, LINE_START);
      if (lines.some((l) => DONE_LINE.test(l))) watch.sawDone = true;
    };
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!watch.sawDone) see(decoder.decode(chunk, { stream: true }), false);
          controller.enqueue(chunk);
        },
        flush() {
          if (!watch.sawDone) see(decoder.decode(), true);
        },
      }),
    );
    const watched = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(watched, 'url', { value: response.url }); // the SDK logs it
    return watched;
  };
}

/**
 * Why an answer has no end marker: a 200 whose body is no event stream (by its type, and by its text: a
 * server may label a real stream `text/plain`), else a stream cut short.
 */
export function unfinished(end: EndWatch, marker: string): ProviderError {
  const stream =
    /event-stream/i.test(end.contentType ?? 'text/event-stream') || /^\s*(?:data|event|id|:)/.test(end.head ?? '');
  return stream ? streamEndedEarly(marker) : notAnEventStream(end.contentType ?? '', end.head ?? '');
}
