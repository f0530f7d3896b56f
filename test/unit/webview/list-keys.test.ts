import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { listMove, scrollMove } from '../../../src/webview/lib/listKeys';

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

test('scrolling keys: arrows by a line, pages and Space by a screen less a line, Home and End to the ends', () => {
  // A box 400 px high showing 1,000 px, scrolled to 300.
  assert.equal(scrollMove('ArrowDown', false, 300, 400, 1000), 340);
  assert.equal(scrollMove('ArrowUp', false, 300, 400, 1000), 260);
  assert.equal(scrollMove('PageDown', false, 100, 400, 1000), 460);
  assert.equal(scrollMove('PageUp', false, 300, 400, 1000), 0);
  assert.equal(scrollMove(' ', false, 100, 400, 1000), 460);
  assert.equal(scrollMove(' ', true, 500, 400, 1000), 140);
  assert.equal(scrollMove('Home', false, 300, 400, 1000), 0);
  assert.equal(scrollMove('End', false, 0, 400, 1000), 600);
  assert.equal(scrollMove('Home', true, 300, 400, 1000), undefined);
  assert.equal(scrollMove('a', false, 300, 400, 1000), undefined);
});

test('a scrolling key always lands inside the scroll range', () => {
  const keys = ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', ' ', 'Home', 'End'];
  fc.assert(
    fc.property(
      fc.constantFrom(...keys),
      fc.boolean(),
      fc.integer({ min: -50, max: 100_000 }),
      fc.integer({ min: 0, max: 3000 }),
      fc.integer({ min: 0, max: 100_000 }),
      (key, shift, top, view, height) => {
        const next = scrollMove(key, shift, top, view, height);
        if (next !== undefined) assert.ok(next >= 0 && next <= Math.max(0, height - view));
      },
    ),
  );
});
