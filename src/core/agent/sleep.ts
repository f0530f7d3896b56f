// A sleep that ends early, with an AbortError, when the signal fires (a Stop during a retry wait).
export type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

export function abortError(): Error {
  const e = new Error('Stopped');
  e.name = 'AbortError';
  return e;
}

export const abortableSleep: AbortableSleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
