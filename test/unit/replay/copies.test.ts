import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findCopies } from '../../../src/core/replay/copies';

test('a trajectory whose calls are all in a longer one is its copy; equal ones keep the first', () => {
  const r = findCopies([['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c'], ['x'], [], ['c', 'y'], [undefined, 'x']]);
  assert.deepEqual(r.copyOf, [1, undefined, 1, undefined, undefined, undefined, 3]);
  // `c` opens the last-but-one and was made in the second: there it is the context it starts from.
  assert.deepEqual(r.copied, [
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    { calls: [0], from: 1 },
    undefined,
  ]);
  assert.deepEqual(r.shared, []);
});

test('a copy of a copy points at the trajectory that holds them all', () => {
  assert.deepEqual(findCopies([['a'], ['a', 'b'], ['a', 'b', 'c']]).copyOf, [2, 2, undefined]);
});

test('a session resumed after a compaction opens with the calls made since it: counted where they were made', () => {
  const r = findCopies([
    ['a1', 'a2', 'a3', 'a4', 'a5'],
    ['a3', 'a4', 'a5', 'b1', 'b2'],
  ]);
  assert.deepEqual(r.copyOf, [undefined, undefined]);
  assert.deepEqual(r.copied, [undefined, { calls: [0, 1, 2], from: 0 }]);
  assert.deepEqual(r.shared, []);
});

test('two forks of one session: the common opening is counted in the first; calls shared otherwise are said', () => {
  const forks = findCopies([
    ['p1', 'p2', 'a1'],
    ['p1', 'p2', 'b1'],
  ]);
  assert.deepEqual(forks.copied, [undefined, { calls: [0, 1], from: 0 }]);
  const odd = findCopies([
    ['x', 's'],
    ['y', 's'],
  ]);
  assert.deepEqual(odd.copied, [undefined, undefined]);
  assert.deepEqual(odd.shared, [{ a: 0, b: 1, calls: 1 }]);
});

test('property: every call is counted by one kept trajectory, and any more count is reported as shared', () => {
  const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
  const trajectory = fc
    .uniqueArray(id, { maxLength: 6 })
    .chain((ids) =>
      fc
        .array(fc.boolean(), { minLength: ids.length, maxLength: ids.length })
        .map((keep) => ids.map((k, i) => (keep[i] ? k : undefined))),
    );
  fc.assert(
    fc.property(fc.array(trajectory, { maxLength: 7 }), (lists) => {
      const { copyOf, copied, shared } = findCopies(lists);
      lists.forEach((list, i) => {
        const j = copyOf[i];
        const ids = list.filter((k) => k !== undefined);
        if (ids.length === 0) assert.equal(j, undefined);
        if (j !== undefined) {
          assert.notEqual(j, i);
          assert.equal(copyOf[j], undefined, 'the holder is kept');
          for (const k of ids) assert.ok(lists[j]!.includes(k));
          assert.equal(copied[i], undefined);
        }
        // What a continuation leaves to another log is its opening calls only.
        for (const n of copied[i]?.calls ?? []) for (let m = 0; m <= n; m++) assert.notEqual(list[m], undefined);
      });
      const counted = new Map<string, number>();
      lists.forEach((list, i) => {
        if (copyOf[i] !== undefined) return;
        list.forEach((k, n) => {
          if (k !== undefined && !copied[i]?.calls.includes(n)) counted.set(k, (counted.get(k) ?? 0) + 1);
        });
      });
      const all = new Set(lists.flat().filter((k) => k !== undefined));
      for (const k of all) assert.ok((counted.get(k) ?? 0) >= 1, `${k} is counted`);
      const extra = [...counted.values()].reduce((s, n) => s + n - 1, 0);
      assert.equal(
        shared.reduce((s, p) => s + p.calls, 0),
        extra,
      );
    }),
  );
});
