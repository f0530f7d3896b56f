import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { listMove } from '../../../src/webview/lib/listKeys';

test('arrows move by one, pages by a screenful, Home and End to the ends; other keys are not moves', () => {
  assert.equal(listMove('ArrowDown', 3, 10, 4), 4);
  assert.equal(listMove('ArrowUp', 3, 10, 4), 2);
  assert.equal(listMove('PageDown', 3, 10, 4), 7);
  assert.equal(listMove('PageUp', 3, 10, 4), 0);
  assert.equal(listMove('Home', 7, 10, 4), 0);
  assert.equal(listMove('End', 0, 10, 4), 9);
  assert.equal(listMove('a', 3, 10, 4), undefined);
  assert.equal(listMove('ArrowDown', 0, 0, 4), undefined);
});

test('a move always lands on a row of the list', () => {
  const keys = ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'];
  fc.assert(
    fc.property(
      fc.constantFrom(...keys),
      fc.integer({ min: -5, max: 3000 }),
      fc.integer({ min: 1, max: 2000 }),
      fc.integer({ min: -3, max: 50 }),
      (key, at, n, page) => {
        const next = listMove(key, at, n, page)!;
        assert.ok(Number.isInteger(next) && next >= 0 && next < n);
      },
    ),
  );
});
