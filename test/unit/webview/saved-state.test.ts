import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EMPTY_STATE, readSavedState, scrollFor } from '../../../src/webview/lib/savedState';

test('a saved draft, scroll position, meter toggle and view come back as saved', () => {
  const saved = {
    draft: 'half a question',
    scroll: { top: 1200, stick: false, session: 'chat-1' },
    meterOpen: true,
    view: 'history' as const,
  };
  assert.deepEqual(readSavedState(saved), saved);
});

test('nothing saved yet (first show) gives the empty state', () => {
  assert.deepEqual(readSavedState(undefined), EMPTY_STATE);
  assert.deepEqual(readSavedState(null), EMPTY_STATE);
});

test('damaged fields are dropped one by one; the good ones are kept', () => {
  assert.deepEqual(readSavedState({ draft: 42, scroll: { top: 'x' }, meterOpen: 'no', view: 'nowhere' }), EMPTY_STATE);
  assert.deepEqual(readSavedState({ draft: 'keep me', scroll: { top: -5, stick: true } }), {
    ...EMPTY_STATE,
    draft: 'keep me',
  });
  assert.deepEqual(readSavedState({ scroll: { top: 10 } }), { ...EMPTY_STATE, scroll: { top: 10, stick: false } });
});

test('a position saved for another chat (the one before a restart) is not applied', () => {
  const s = readSavedState({ scroll: { top: 300, stick: false, session: 'chat-old' } });
  assert.equal(scrollFor(s, 'chat-new'), undefined);
  assert.deepEqual(scrollFor(s, 'chat-old'), { top: 300, stick: false, session: 'chat-old' });
  assert.equal(scrollFor(readSavedState({ scroll: { top: 300, stick: false } }), 'chat-new'), undefined);
});

test('any stored value reads without throwing and yields a well-formed state', () => {
  fc.assert(
    fc.property(fc.anything(), (raw) => {
      const s = readSavedState(raw);
      assert.equal(typeof s.draft, 'string');
      assert.equal(typeof s.meterOpen, 'boolean');
      assert.ok(['chat', 'setup', 'history'].includes(s.view));
      if (s.scroll) assert.ok(Number.isFinite(s.scroll.top) && s.scroll.top >= 0);
    }),
  );
});
