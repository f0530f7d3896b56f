// Waiting for a condition with a deadline: what tests do instead of a fixed sleep or an endless poll.
// A condition that never comes fails the test with what was awaited, instead of hanging the run.

/** Resolves once `check` holds; rejects after `timeoutMs` naming `what`. Checks every `intervalMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
