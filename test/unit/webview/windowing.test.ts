import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeWindow, estimateHeight, heightsFor, isNearBottom } from '../../../src/webview/lib/windowing';

test('renders only the items around the viewport, with spacers for the rest', () => {
  const heights = Array.from({ length: 500 }, () => 100);
  const w = computeWindow(heights, 10_000, 400, 200);
  assert.equal(w.start, 98);
  assert.equal(w.end, 106);
  assert.equal(w.padTop, 9_800);
  assert.equal(w.padBottom, 50_000 - 10_600);
  assert.equal(w.total, 50_000);
});

test('an empty list renders nothing; a scroll past the end still renders the last item', () => {
  assert.deepEqual(computeWindow([], 50, 100, 10), { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 });
  const w = computeWindow([10, 10, 10], 1_000, 100, 0);
  assert.equal(w.end, 3);
  assert.ok(w.start <= 2);
});

test('the window covers the viewport and spacers plus rendered heights add up to the total', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 300 }),
      fc.nat(100_000),
      fc.integer({ min: 1, max: 2000 }),
      fc.nat(800),
      (heights, scrollTop, viewport, overscan) => {
        const w = computeWindow(heights, scrollTop, viewport, overscan);
        const rendered = heights.slice(w.start, w.end).reduce((a, h) => a + h, 0);
        assert.equal(w.padTop + rendered + w.padBottom, w.total);
        assert.ok(w.start < w.end && w.end <= heights.length);
        const top = Math.min(scrollTop, w.total);
        // Everything visible is rendered: the window starts at or above the top and ends at or below the
        // viewport's bottom (or at the last item).
        assert.ok(w.padTop <= top);
        assert.ok(w.end === heights.length || w.padTop + rendered >= scrollTop + viewport);
      },
    ),
  );
});

test('near-bottom detection follows output only when the user has not scrolled up', () => {
  assert.equal(isNearBottom(900, 100, 1000), true);
  assert.equal(isNearBottom(880, 100, 1000), true);
  assert.equal(isNearBottom(500, 100, 1000), false);
});

test('heights use measurements when known and a size estimate otherwise', () => {
  const h = heightsFor(
    [
      { id: 'a', size: 0 },
      { id: 'b', size: 600 },
    ],
    new Map([['a', 77]]),
  );
  assert.deepEqual(h, [77, estimateHeight(600)]);
  assert.ok(estimateHeight(6000) > estimateHeight(60));
  assert.ok(estimateHeight(10_000_000) <= 2040);
});
