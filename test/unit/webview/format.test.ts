import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  budgetLabel,
  cachedShare,
  countLines,
  formatDuration,
  formatPercent,
  formatTokens,
  formatUsd,
  formatUsedPercent,
  prettyArguments,
  statusText,
  tokenLabel,
  windowShare,
} from '../../../src/webview/lib/format';

test('token counts read as plain, k and M', () => {
  assert.equal(formatTokens(0), '0');
  assert.equal(formatTokens(950), '950');
  assert.equal(formatTokens(1234), '1.23k');
  assert.equal(formatTokens(12_345), '12.3k');
  assert.equal(formatTokens(128_000), '128k');
  assert.equal(formatTokens(1_250_000), '1.25M');
  assert.equal(formatTokens(Number.NaN), '–');
});

test('estimated counts carry the ≈ marker, exact ones do not', () => {
  assert.equal(tokenLabel(12_345, true), '≈ 12.3k');
  assert.equal(tokenLabel(12_345, false), '12.3k');
});

test('percent, money and durations', () => {
  assert.equal(formatPercent(0), '0%');
  assert.equal(formatPercent(0.004), '0.4%');
  assert.equal(formatPercent(0.42), '42%');
  assert.equal(formatPercent(1), '100%');
  assert.equal(formatUsd(0), '$0');
  assert.equal(formatUsd(0.0042), '$0.0042');
  assert.equal(formatUsd(1.5), '$1.50');
  // A cheap call is never shown as nothing: 600 tokens of gpt-5-nano cost $0.00003.
  assert.equal(formatUsd(0.00003), '$0.00003');
  assert.equal(formatUsd(0.0000254), '$0.000025');
  assert.equal(formatUsd(1e-9), '$0.000000001');
  // Halves round up as written: binary floats lie just under 0.015, 1.005, 2.675 and 0.995.
  assert.equal(formatUsd(0.015), '$0.02');
  assert.equal(formatUsd(1.005), '$1.01');
  assert.equal(formatUsd(2.675), '$2.68');
  assert.equal(formatUsd(0.995), '$1.00');
  assert.equal(formatUsd(-0.015), '−$0.02');
  assert.equal(formatUsd(0.014999), '$0.01');
  assert.equal(formatDuration(850), '850 ms');
  assert.equal(formatDuration(12_300), '12.3 s');
  assert.equal(formatDuration(125_000), '2m 5s');
  assert.equal(formatDuration(-1), '–');
});

test('shares are clamped to [0, 1] and safe on an empty window', () => {
  assert.equal(windowShare({ tokensInWindow: 10, contextWindow: 0 }), 0);
  assert.equal(windowShare({ tokensInWindow: 300, contextWindow: 200 }), 1);
  assert.equal(cachedShare({ tokensInWindow: 0, cachedTokens: 5 }), 0);
  assert.equal(cachedShare({ tokensInWindow: 200, cachedTokens: 50 }), 0.25);
  fc.assert(
    fc.property(fc.integer(), fc.integer(), (a, b) => {
      const s = windowShare({ tokensInWindow: a, contextWindow: b });
      const c = cachedShare({ tokensInWindow: a, cachedTokens: b });
      return s >= 0 && s <= 1 && c >= 0 && c <= 1;
    }),
  );
});

test('every status has a human label', () => {
  assert.equal(statusText('running'), 'Running…');
  assert.equal(statusText('budget'), 'Stopped: budget exceeded');
  assert.equal(statusText('idle'), 'Ready');
});

test('line counts ignore a trailing newline', () => {
  assert.equal(countLines(''), 0);
  assert.equal(countLines('a'), 1);
  assert.equal(countLines('a\nb\n'), 2);
  assert.equal(countLines('a\n\nb'), 3);
});

test('arguments are pretty-printed when JSON and shown as sent otherwise', () => {
  assert.equal(prettyArguments('{"path":"a.ts"}'), '{\n  "path": "a.ts"\n}');
  assert.equal(prettyArguments('{not json'), '{not json');
});

test('a budget just under or over its limit never reads as exactly 100 %', () => {
  assert.equal(formatUsedPercent(99.6), '99.6%');
  assert.equal(formatUsedPercent(99.96), '99.9%');
  assert.equal(formatUsedPercent(79.6), '79%');
  assert.equal(formatUsedPercent(100), '100%');
  assert.equal(formatUsedPercent(100.04), '100.1%');
  assert.equal(formatUsedPercent((63865 / 60000) * 100), '106%');
  fc.assert(
    fc.property(fc.double({ min: 0, max: 300, noNaN: true }), (p) => {
      const shown = Number.parseFloat(formatUsedPercent(p));
      // Never more than a whole percent off, and on the same side of the limit as the use itself.
      assert.ok(Math.abs(shown - p) <= 1, `${p} shown as ${shown}`);
      assert.equal(Math.sign(shown - 100), Math.sign(p - 100), `${p} shown as ${shown}`);
    }),
  );
});

test('the budget carries ≈ when a model we count approximately had calls its provider did not report', () => {
  const totals = { tokensSent: 1, cachedTokens: 0, outputTokens: 1, reportedInputTokens: 1, reportedCachedTokens: 0 };
  const budget = { state: 'warning' as const, usedPercent: 99.6, limit: 30_000 };
  // VS Code's language models: nothing reported, the budget holds our scaled estimate.
  assert.equal(budgetLabel({ budget, estimated: true, calls: 4, totals: { ...totals, reportedCalls: 0 } }), '≈ 99.6%');
  assert.equal(budgetLabel({ budget, estimated: true, calls: 4 }), '≈ 99.6%');
  // Every call reported: the budget was settled to the provider's figures.
  assert.equal(budgetLabel({ budget, estimated: true, calls: 4, totals: { ...totals, reportedCalls: 4 } }), '99.6%');
  assert.equal(budgetLabel({ budget, estimated: false, calls: 4 }), '99.6%');
});

test('money: every half cent, written as a decimal, rounds up to the next cent', () => {
  const cents = (k: number) => `${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000_000 }), (k) => {
      assert.equal(formatUsd(Number(`${cents(k)}5`)), `$${cents(k + 1)}`);
      assert.equal(formatUsd(Number(`${cents(k)}4999`)), `$${cents(k)}`);
    }),
  );
});
