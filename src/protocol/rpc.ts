// A small request/response layer over postMessage, used by both sides with their own request maps.
import type { ParamsOf, RequestMessage, ResponseMessage, ResultOf } from './messages';

/** Tracks outgoing requests and settles them when the matching response arrives. */
export class RequestTracker<R> {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }
  >();

  constructor(
    private readonly post: (message: RequestMessage<R>) => void,
    /** How long a request may wait for its answer: one figure, or one per method. */
    private readonly timeoutMs: number | ((method: keyof R & string) => number) = 10_000,
  ) {}

  request<K extends keyof R & string>(method: K, params: ParamsOf<R, K>): Promise<ResultOf<R, K>> {
    const id = this.nextId++;
    const ms = typeof this.timeoutMs === 'number' ? this.timeoutMs : this.timeoutMs(method);
    return new Promise<ResultOf<R, K>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`Request '${method}' got no answer within ${ms} ms`));
      }, ms);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.post({ type: 'request', id, method, params } as RequestMessage<R>);
    });
  }

  /** Returns true when the response belonged to this tracker. */
  settle(message: ResponseMessage): boolean {
    const entry = this.pending.get(message.id);
    if (!entry) return false;
    this.pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new Error(message.error));
    return true;
  }

  /** Rejects everything still waiting (the other side went away). */
  dispose(reason = 'The panel was closed'): void {
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new Error(reason));
      this.pending.delete(id);
    }
  }
}

export type Handlers<R> = { [K in keyof R]: (params: ParamsOf<R, K>) => Promise<ResultOf<R, K>> | ResultOf<R, K> };

/** Runs the handler for an incoming request and posts exactly one response. */
export async function answer<R>(
  handlers: Handlers<R>,
  message: { id: number; method: keyof R; params: unknown },
  post: (response: ResponseMessage) => void,
): Promise<void> {
  const handler = handlers[message.method] as ((p: unknown) => unknown) | undefined;
  let response: ResponseMessage;
  try {
    if (!handler) throw new Error(`Unknown request '${String(message.method)}'`);
    response = { type: 'response', id: message.id, ok: true, result: await handler(message.params) };
  } catch (e) {
    response = { type: 'response', id: message.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  post(response);
}
