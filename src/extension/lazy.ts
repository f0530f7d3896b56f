// Loads dist/features.js on first use. esbuild leaves this require alone (it is marked external), so the
// extension bundle stays small and activation does not pay for modules nobody has used yet.
import type * as Features from './features';

let loaded: typeof Features | undefined;
const onLoad: ((f: typeof Features) => void)[] = [];

export function features(): typeof Features {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time path, on purpose
    loaded = require('./features.js') as typeof Features;
    for (const cb of onLoad.splice(0)) cb(loaded);
  }
  return loaded;
}

/** Runs `cb` with the features bundle as soon as it is loaded (now, if it is): set-up its modules need first. */
export function whenFeaturesLoad(cb: (f: typeof Features) => void): void {
  if (loaded) cb(loaded);
  else onLoad.push(cb);
}

/** The features bundle if it was loaded already, without loading it. */
export function featuresIfLoaded(): typeof Features | undefined {
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
