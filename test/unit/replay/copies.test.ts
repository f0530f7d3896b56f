import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findCopies } from '../../../src/core/replay/copies';

const sets = (...lists: string[][]) => lists.map((l) => new Set(l));

test('a trajectory whose calls are all in a longer one is its copy; equal ones keep the first; partial overlaps are reported', () => {
  const r = findCopies(sets(['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c'], ['x'], [], ['c', 'y']));
  assert.deepEqual(r.copyOf, [1, undefined, 1, undefined, undefined, undefined]);
  assert.deepEqual(r.shared, [{ a: 1, b: 5, calls: 1 }]);
});

test('a copy of a copy points at the trajectory that holds them all', () => {
  const r = findCopies(sets(['a'], ['a', 'b'], ['a', 'b', 'c']));
  assert.deepEqual(r.copyOf, [2, 2, undefined]);
});

test('property: a copy is held whole by a kept trajectory at least as long; no ids, no copy', () => {
  const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
  fc.assert(
    fc.property(fc.array(fc.uniqueArray(ids, { maxLength: 5 }), { maxLength: 8 }), (lists) => {
      const keys = lists.map((l) => new Set(l));
      const { copyOf, shared } = findCopies(keys);
      keys.forEach((set, i) => {
        const j = copyOf[i];
        if (set.size === 0) assert.equal(j, undefined);
        if (j === undefined) return;
        assert.notEqual(j, i);
        assert.equal(copyOf[j], undefined, 'the holder is kept');
        assert.ok(keys[j]!.size >= set.size);
        for (const k of set) assert.ok(keys[j]!.has(k));
      });
      // Every call of every trajectory is still replayed by some kept trajectory.
      const kept = new Set(keys.flatMap((s, i) => (copyOf[i] === undefined ? [...s] : [])));
      for (const s of keys) for (const k of s) assert.ok(kept.has(k));
      for (const p of shared) assert.ok(copyOf[p.a] === undefined && copyOf[p.b] === undefined && p.calls > 0);
    }),
  );
});
