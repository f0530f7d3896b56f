// The retry policy as a table: what is retried, how often, after how long, and which retries are filtered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ProviderErrorInfo, ProviderErrorKind } from '../../../src/core/agent/errors';
import {
  DEFAULT_RETRY_POLICY,
  OVERFLOW_NOTE,
  invalidToolCallNote,
  planRetry,
  type RetryCounts,
} from '../../../src/core/agent/retry-policy';

const none: RetryCounts = { transient: 0, unreachable: 0, overflow: 0 };
const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000, retryAfterCapMs: 5_000 };
const err = (kind: ProviderErrorKind, extra: Partial<ProviderErrorInfo> = {}): ProviderErrorInfo => ({
  kind,
  message: kind,
  ...extra,
});

test('transient failures resend unfiltered with capped exponential backoff, Retry-After first', () => {
  for (const kind of ['server', 'timeout', 'network', 'rate-limit'] as const) {
    const delays = [0, 1, 2, 3, 4].map((n) => planRetry(err(kind), { ...none, transient: n }, policy)?.delayMs);
    assert.deepEqual(delays, [100, 200, 400, undefined, undefined], kind);
    assert.equal(planRetry(err(kind), none, policy)!.filterNote, undefined, `${kind} is never filtered`);
  }
  assert.equal(planRetry(err('rate-limit', { retryAfterMs: 5_000 }), none, policy)!.delayMs, 5_000);
  // Resending before a longer Retry-After only meets the same refusal: the run stops and says when.
  assert.equal(planRetry(err('rate-limit', { retryAfterMs: 5_001 }), none, policy), undefined);
  assert.equal(planRetry(err('server', { status: 503, retryAfterMs: 3_600_000 }), none, policy), undefined);
  assert.equal(planRetry(err('server', { status: 503, retryAfterMs: 2_000 }), none, policy)!.delayMs, 2_000);
});

test('an unreachable server is tried once more, whatever maxRetries says', () => {
  const refused = err('network', { unreachable: true });
  const many = { ...policy, maxRetries: 10 };
  assert.deepEqual(planRetry(refused, none, many), { counts: 'unreachable', delayMs: 100 });
  assert.equal(planRetry(refused, { ...none, unreachable: 1 }, many), undefined);
});

test('a context overflow is retried once, at once, filtered with its note; other kinds never', () => {
  assert.deepEqual(planRetry(err('context-overflow'), none, policy), {
    counts: 'overflow',
    delayMs: 0,
    filterNote: OVERFLOW_NOTE,
  });
  assert.equal(planRetry(err('context-overflow'), { ...none, overflow: 1 }, policy), undefined);
  for (const kind of ['auth', 'bad-request', 'aborted'] as const)
    assert.equal(planRetry(err(kind), none, policy), undefined);
});

test('property: counts never exceed their limits and only an overflow filters', () => {
  const kinds: ProviderErrorKind[] = [
    'auth',
    'rate-limit',
    'server',
    'timeout',
    'context-overflow',
    'network',
    'bad-request',
  ];
  fc.assert(
    fc.property(
      fc.array(fc.record({ kind: fc.constantFrom(...kinds), unreachable: fc.boolean() }), { maxLength: 30 }),
      (errors) => {
        const tried: RetryCounts = { ...none };
        for (const e of errors) {
          const plan = planRetry(
            err(e.kind, e.kind === 'network' && e.unreachable ? { unreachable: true } : {}),
            tried,
            policy,
          );
          if (!plan) continue;
          tried[plan.counts]++;
          assert.equal(plan.filterNote !== undefined, e.kind === 'context-overflow');
        }
        assert.ok(tried.transient <= policy.maxRetries && tried.unreachable <= 1 && tried.overflow <= 1);
      },
    ),
  );
});

test('the invalid-tool-call note names the problems, clipped', () => {
  const note = invalidToolCallNote(['malformed-json "read_file"', `unknown-tool "${'x'.repeat(300)}"`]);
  assert.match(
    note,
    /^Note: your previous reply had an invalid tool call \(malformed-json "read_file"; unknown-tool "x+…\)/,
  );
  assert.ok(note.length < 500);
});
