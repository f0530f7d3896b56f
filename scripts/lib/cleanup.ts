// Runs cleanups on normal exit, on error and on Ctrl-C / SIGTERM, so no server or browser outlives us.
type Cleanup = () => Promise<void> | void;
const cleanups: Cleanup[] = [];
let installed = false;
let running: Promise<void> | undefined;

export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void runCleanups().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

/** Runs every registered cleanup once, newest first; errors are reported, never thrown. */
export function runCleanups(): Promise<void> {
  running ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error(`cleanup failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  })();
  return running;
}

/** Runs a script's main, prints a crash, always cleans up, and exits with main's code. */
export function runMain(main: () => Promise<number>): void {
  onCleanup(() => undefined);
  main()
    .catch((e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      return 1;
    })
    .then(async (code) => {
      await runCleanups();
      process.exit(code);
    });
}
