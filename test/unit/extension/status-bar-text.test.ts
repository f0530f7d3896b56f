import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextMeter } from '../../../src/protocol/chat';
import { statusBarText, statusBarTooltip } from '../../../src/extension/statusBarText';

const meter = (over: Partial<ContextMeter>): ContextMeter => ({
  tokensInWindow: 12_345,
  contextWindow: 128_000,
  cachedTokens: 10_000,
  rawHistoryTokens: 20_000,
  costUnits: 30_000,
  calls: 4,
  maskedObservations: 0,
  estimated: false,
  ...over,
});
const budget = { state: 'warning' as const, usedPercent: 99.6, limit: 30_000 };
const totals = { tokensSent: 1, cachedTokens: 0, outputTokens: 1, reportedInputTokens: 1, reportedCachedTokens: 0 };

test("the status bar's budget carries ≈ where the panel's does: our scaled estimate of unreported calls", () => {
  // VS Code's language models (Claude via Copilot): nothing reported, the budget holds our estimate.
  const lm = statusBarTooltip({
    strategy: 'cache-aware',
    meter: meter({ estimated: true, budget, totals: { ...totals, reportedCalls: 0 } }),
  });
  assert.match(lm, /Budget: warning, ≈ 99\.6% of 30,000/);
  assert.match(lm, /Cost so far: ≈ 30,000 units/);
  // Every call reported: settled to the provider's figures, no marker.
  const reported = statusBarTooltip({
    strategy: 'cache-aware',
    meter: meter({ estimated: true, budget, totals: { ...totals, reportedCalls: 4 } }),
  });
  assert.match(reported, /Budget: warning, 99\.6% of 30,000/);
  assert.match(reported, /Cost so far: 30,000 units/);
});

test('the status bar shows money by the panel rule and the window share', () => {
  const m = meter({ costUsd: 0.015 });
  assert.match(statusBarTooltip({ strategy: 'masking', meter: m }), /Cost so far: \$0\.02 \(30,000 units\)/);
  assert.equal(statusBarText({ meter: m }), '$(layers) 12.3k/128k (10%)');
  assert.equal(statusBarText({ meter: meter({ estimated: true }) }), '$(layers) ≈12.3k/128k (10%)');
});
