// Only the configured encoding is loaded, shared by all tokenizers, and let go when nobody uses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenizer, loadedEncodings, TiktokenTokenizer, type IdleScheduler } from '../../../src/core/tokens';

/** Timers the test advances by hand. */
function manualClock(): IdleScheduler & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 0;
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.push({ at: now + ms, fn, id: ++next });
      return next;
    },
    clearTimeout: (id) => (timers = timers.filter((t) => t.id !== id)),
    advance(ms) {
      now += ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0];
        if (!due) return;
        timers = timers.filter((t) => t !== due);
        due.fn();
      }
    },
  };
}

test('nothing is loaded until a count misses the cache; tokenizers of one name share one encoding', () => {
  const a = createTokenizer('o200k') as TiktokenTokenizer;
  const b = createTokenizer('o200k') as TiktokenTokenizer;
  assert.deepEqual(loadedEncodings(), { names: [], wasm: false });
  assert.equal(a.count('hello world'), b.count('hello world'));
  assert.deepEqual(loadedEncodings(), { names: ['o200k'], wasm: true });
  a.dispose();
  assert.deepEqual(loadedEncodings().names, ['o200k'], 'b still holds it');
  assert.ok(b.count('still counting') > 0);
  b.dispose();
  assert.deepEqual(loadedEncodings(), { names: [], wasm: false }, 'the WASM generation is dropped');
});

test('switching the tokenizer leaves only the new encoding loaded', () => {
  const o = createTokenizer('o200k');
  o.count('a first conversation');
  o.release(); // New Chat
  const c = createTokenizer('cl100k');
  const n = c.count('Überprüfung der Tokenisierung');
  assert.deepEqual(loadedEncodings().names, ['cl100k']);
  c.dispose();
  // a fresh generation counts exactly as the first did
  const again = createTokenizer('cl100k');
  assert.equal(again.count('Überprüfung der Tokenisierung'), n);
  again.dispose();
});

test('an idle tokenizer lets its encoding go but keeps its cached counts; the next new text reloads it', () => {
  const clock = manualClock();
  const t = createTokenizer('o200k', { idleMs: 1000, scheduler: clock }) as TiktokenTokenizer;
  const seen = t.count('an observation the session keeps');
  clock.advance(600);
  t.count('another one'); // activity postpones the release
  clock.advance(600);
  assert.equal(t.loaded, true);
  clock.advance(400);
  assert.equal(t.loaded, false);
  assert.deepEqual(loadedEncodings(), { names: [], wasm: false });
  assert.equal(t.count('an observation the session keeps'), seen, 'answered from the cache');
  assert.equal(t.loaded, false, 'a cache hit loads nothing');
  assert.ok(t.count('something new') > 0);
  assert.equal(t.loaded, true);
  t.dispose();
  assert.deepEqual(loadedEncodings().names, []);
});

test('release forgets cached counts and the encoding; the tokenizer stays usable', () => {
  const t = createTokenizer('o200k') as TiktokenTokenizer;
  const n = t.count('text of a closed session');
  t.release();
  assert.equal(t.cachedTexts, 0);
  assert.equal(t.loaded, false);
  assert.equal(t.count('text of a closed session'), n);
  t.release();
  t.release(); // twice is harmless
  assert.deepEqual(loadedEncodings().names, []);
});
