// Components ask the host for things by dispatching one bubbling, composed event; <cd-app> forwards it
// over the connection and shows failures. Keeps components free of the connection itself.
import type { HostRequests, PanelView, ParamsOf, ResultOf } from '../protocol/messages';

export const HOST_REQUEST = 'cd-host-request';

export interface HostRequestDetail<K extends keyof HostRequests = keyof HostRequests> {
  method: K;
  params: ParamsOf<HostRequests, K>;
  /** Settles with the host's answer (or its error) for components that need it. */
  reply?: { resolve: (result: ResultOf<HostRequests, K>) => void; reject: (error: Error) => void };
}

export function requestHost<K extends keyof HostRequests>(
  from: EventTarget,
  method: K,
  params: ParamsOf<HostRequests, K>,
): void {
  from.dispatchEvent(
    new CustomEvent<HostRequestDetail<K>>(HOST_REQUEST, { detail: { method, params }, bubbles: true, composed: true }),
  );
}

/** The same, waiting for the answer. */
export function askHost<K extends keyof HostRequests>(
  from: EventTarget,
  method: K,
  params: ParamsOf<HostRequests, K>,
): Promise<ResultOf<HostRequests, K>> {
  return new Promise((resolve, reject) => {
    from.dispatchEvent(
      new CustomEvent<HostRequestDetail<K>>(HOST_REQUEST, {
        detail: { method, params, reply: { resolve, reject } },
        bubbles: true,
        composed: true,
      }),
    );
  });
}

export const SHOW_VIEW = 'cd-show-view';

/** Asks the panel to show one of its views (the conversation, the setup form, History). */
export function showView(from: EventTarget, view: PanelView): void {
  from.dispatchEvent(new CustomEvent<PanelView>(SHOW_VIEW, { detail: view, bubbles: true, composed: true }));
}
