import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EMPTY_STATE, legacyDraft, readSavedState, scrollFor } from '../../../src/webview/lib/savedState';

test('a saved scroll position, meter toggle and view come back as saved', () => {
  const saved = {
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
  assert.deepEqual(readSavedState({ meterOpen: true, scroll: { top: -5, stick: true } }), {
    ...EMPTY_STATE,
    meterOpen: true,
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
      assert.equal(typeof legacyDraft(raw), 'string');
      assert.ok(!('draft' in s), 'no text the user typed is kept in the state VS Code writes to disk');
      assert.equal(typeof s.meterOpen, 'boolean');
      assert.ok(['chat', 'setup', 'history'].includes(s.view));
      if (s.scroll) assert.ok(Number.isFinite(s.scroll.top) && s.scroll.top >= 0);
    }),
  );
});

test('a draft an earlier version kept in the state is read once (to hand to the host) and not kept', () => {
  const raw = { draft: 'my key is ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', meterOpen: true };
  assert.equal(legacyDraft(raw), raw.draft);
  assert.deepEqual(readSavedState(raw), { ...EMPTY_STATE, meterOpen: true });
  assert.equal(legacyDraft({ draft: 7 }), '');
  assert.equal(legacyDraft(undefined), '');
});
