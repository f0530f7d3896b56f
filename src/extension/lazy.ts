// Loads dist/features.js on first use. esbuild leaves this require alone (it is marked external), so the
// extension bundle stays small and activation does not pay for modules nobody has used yet.
import type * as Features from './features';

let loaded: typeof Features | undefined;

export function features(): typeof Features {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time path, on purpose
  loaded ??= require('./features.js') as typeof Features;
  return loaded;
}

export interface Lazy<T> {
  (): T;
  /** The value if it was created already, without creating it. */
  peek(): T | undefined;
}

export function lazy<T>(create: () => T): Lazy<T> {
  let box: { value: T } | undefined;
  const get = (() => (box ??= { value: create() }).value) as Lazy<T>;
  get.peek = () => box?.value;
  return get;
}
