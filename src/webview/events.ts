// Components ask the host for things by dispatching one bubbling, composed event; <cd-app> forwards it
// over the connection and shows failures. Keeps components free of the connection itself.
import type { HostRequests, ParamsOf } from '../protocol/messages';

export const HOST_REQUEST = 'cd-host-request';

export interface HostRequestDetail<K extends keyof HostRequests = keyof HostRequests> {
  method: K;
  params: ParamsOf<HostRequests, K>;
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
