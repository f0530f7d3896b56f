import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CountCache } from '../../../src/core/tokens';

test('total characters never exceed the bound, and recent entries survive', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 200 }),
      fc.array(fc.string({ maxLength: 60 }), { maxLength: 200 }),
      (max, keys) => {
        const c = new CountCache(max);
        for (const k of keys) {
          c.set(k, k.length);
          assert.ok(c.totalChars <= max);
          if (k.length <= max) assert.equal(c.get(k), k.length);
        }
      },
    ),
  );
});

test('a size that is not positive is rejected', () => {
  assert.throws(() => new CountCache(0), /positive/);
});
