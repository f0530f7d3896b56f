// A loose bound on time for inputs built to be slow: a search that is linear in the input reads them in
// well under a second; one that is quadratic took minutes. The bound is far from both, so a slow machine
// does not fail it and a quadratic search always does (a test runner's timeout cannot stop synchronous
// work, so the elapsed time is asserted instead).
import assert from 'node:assert/strict';

export const LINEAR_BOUND_MS = 15_000;

export function assertQuick(started: number): void {
  const took = performance.now() - started;
  assert.ok(took < LINEAR_BOUND_MS, `took ${Math.round(took)} ms: a search is no longer linear`);
}
