// The webview's side of the protocol: posts to the extension host and dispatches what comes back.
import {
  PROTOCOL_VERSION,
  isMessage,
  type HostRequests,
  type HostToWebview,
  type InitPayload,
  type ParamsOf,
  type ResultOf,
  type WebviewNotifications,
  type WebviewRequests,
} from '../protocol/messages';
import { RequestTracker, answer, type Handlers } from '../protocol/rpc';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostEvents {
  onInit(payload: InitPayload): void;
  onNotification<K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]): void;
}

/**
 * Requests that reach the network or a dialog (a model list paged at 10 s a page, VS Code's consent to use
 * its models, a long history file) wait longer than the host's own timeouts, so the host's clear message
 * is shown rather than "got no answer".
 */
const SLOW_REQUESTS: ReadonlySet<string> = new Set(['listModels', 'testConnection', 'saveSetup', 'openSession']);

export function hostRequestTimeout(method: string): number {
  return SLOW_REQUESTS.has(method) ? 120_000 : 10_000;
}

export class HostConnection {
  private readonly api = acquireVsCodeApi();
  private readonly tracker = new RequestTracker<HostRequests>((m) => this.api.postMessage(m), hostRequestTimeout);

  constructor(
    private readonly events: HostEvents,
    private readonly handlers: Handlers<WebviewRequests>,
  ) {
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.receive(e.data));
    this.api.postMessage({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  }

  /** State VS Code keeps for this webview while it is hidden (survives the iframe being discarded). */
  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  request<K extends keyof HostRequests & string>(
    method: K,
    params: ParamsOf<HostRequests, K>,
  ): Promise<ResultOf<HostRequests, K>> {
    return this.tracker.request(method, params);
  }

  private receive(raw: unknown): void {
    if (!isMessage(raw)) return;
    const m = raw as HostToWebview;
    switch (m.type) {
      case 'init':
        this.events.onInit(m.payload);
        return;
      case 'notification':
        this.events.onNotification(m.method, m.params);
        return;
      case 'request':
        void answer(this.handlers, m, (r) => this.api.postMessage(r));
        return;
      case 'response':
        this.tracker.settle(m);
        return;
    }
  }
}
