// core/numbers.ts writes numbers as Intl's en-US format does, without Intl (which pages ICU's data in).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareText, formatCount, formatDecimal, formatSignificant, localTime } from '../../src/core/numbers';

/** Doubles of every kind: integers, halves at many scales, tiny and huge, negative, and any double. */
const numbers = fc.oneof(
  fc.integer({ min: -1e12, max: 1e12 }),
  fc.double({ noNaN: false }),
  fc.double({ min: -1e-3, max: 1e-3 }),
  fc.double({ min: -1e6, max: 1e6 }),
  fc
    .tuple(fc.integer({ min: -100000, max: 100000 }), fc.integer({ min: 0, max: 8 }))
    .map(([m, e]) => (m + 0.5) / 10 ** e),
  fc.constantFrom(0, -0, 0.015, 1.005, 0.0005, 999.9995, 9.995, 1e21, 1e-7, 123456789.987654, Infinity, -Infinity, NaN),
);

test('formatCount writes what toLocaleString("en-US") writes', () => {
  fc.assert(
    fc.property(numbers, (n) => assert.equal(formatCount(n), n.toLocaleString('en-US'))),
    { numRuns: 5000 },
  );
  assert.equal(formatCount(1234567), '1,234,567');
  assert.equal(formatCount(-1234.5678), '-1,234.568');
});

test('formatDecimal writes what toLocaleString("en-US") writes with fraction digits and grouping', () => {
  fc.assert(
    fc.property(
      numbers,
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 0, max: 8 }),
      fc.boolean(),
      (n, a, b, grouping) => {
        const [minFraction, maxFraction] = a <= b ? [a, b] : [b, a];
        assert.equal(
          formatDecimal(n, { minFraction, maxFraction, grouping }),
          n.toLocaleString('en-US', {
            minimumFractionDigits: minFraction,
            maximumFractionDigits: maxFraction,
            useGrouping: grouping,
          }),
        );
      },
    ),
    { numRuns: 5000 },
  );
  assert.equal(formatDecimal(0.015, { minFraction: 2, maxFraction: 2 }), '0.02', 'halves of the written decimal go up');
});

test('formatSignificant writes what toLocaleString("en-US", { maximumSignificantDigits }) writes', () => {
  fc.assert(
    fc.property(numbers, fc.integer({ min: 1, max: 6 }), (n, digits) =>
      assert.equal(
        formatSignificant(n, digits),
        n.toLocaleString('en-US', { maximumSignificantDigits: digits, maximumFractionDigits: 20 }),
      ),
    ),
    { numRuns: 5000 },
  );
  assert.equal(formatSignificant(0.000034567, 2), '0.000035');
});

test('compareText orders the same on every machine: case folded, then by code unit', () => {
  assert.deepEqual(['b', 'B', 'a', 'A', '_x', '.x', '10', '9'].sort(compareText), [
    '.x',
    '10',
    '9',
    '_x',
    'A',
    'a',
    'B',
    'b',
  ]);
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => {
      assert.equal(Math.sign(compareText(a, b)) + Math.sign(compareText(b, a)), 0);
      assert.equal(compareText(a, b) === 0, a === b);
    }),
  );
});

test('localTime writes the local date and time, zero-padded', () => {
  assert.equal(localTime(new Date(2026, 0, 5, 7, 8, 9)), '2026-01-05 07:08:09');
  assert.equal(localTime(new Date(2026, 10, 23, 23, 59, 59)), '2026-11-23 23:59:59');
});
