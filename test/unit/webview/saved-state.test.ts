import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EMPTY_STATE, readSavedState } from '../../../src/webview/lib/savedState';

test('a saved draft, scroll position and context toggle come back as saved', () => {
  const saved = { draft: 'half a question', scroll: { top: 1200, stick: false }, contextOpen: false };
  assert.deepEqual(readSavedState(saved), saved);
});

test('nothing saved yet (first show) gives the empty state', () => {
  assert.deepEqual(readSavedState(undefined), EMPTY_STATE);
  assert.deepEqual(readSavedState(null), EMPTY_STATE);
});

test('damaged fields are dropped one by one; the good ones are kept', () => {
  assert.deepEqual(readSavedState({ draft: 42, scroll: { top: 'x' }, contextOpen: 'no' }), EMPTY_STATE);
  assert.deepEqual(readSavedState({ draft: 'keep me', scroll: { top: -5, stick: true } }), {
    draft: 'keep me',
    contextOpen: true,
  });
  assert.deepEqual(readSavedState({ scroll: { top: 10 } }), {
    draft: '',
    contextOpen: true,
    scroll: { top: 10, stick: false },
  });
});

test('any stored value reads without throwing and yields a well-formed state', () => {
  fc.assert(
    fc.property(fc.anything(), (raw) => {
      const s = readSavedState(raw);
      assert.equal(typeof s.draft, 'string');
      assert.equal(typeof s.contextOpen, 'boolean');
      if (s.scroll) assert.ok(Number.isFinite(s.scroll.top) && s.scroll.top >= 0);
    }),
  );
});
