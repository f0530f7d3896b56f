// Only the configured encoding is loaded, shared by all tokenizers, and let go when nobody uses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get_encoding } from 'tiktoken';
import { createTokenizer, loadedEncodings, TiktokenTokenizer, type IdleScheduler } from '../../../src/core/tokens';
import { acquireEncoding, MAX_RUN, splitLongRuns } from '../../../src/core/tokens/encodings';
import { assertQuick } from '../../support/linear-time';

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

// tiktoken's byte-pair merge is quadratic in one piece, and a run of blanks, letters or signs is one
// piece: 200 KB of newlines took 36 s on the extension host's thread.
test('a run longer than MAX_RUN is counted exactly (as tiktoken counts it whole) and in linear time', () => {
  const text = `start ${'\n'.repeat(10_000)} middle ${'='.repeat(9_000)} ${'a'.repeat(7_000)} end`;
  const parts = splitLongRuns(text);
  assert.equal(parts.join(''), text);
  assert.ok(parts.every((p) => p.length <= 2 * MAX_RUN + 20));
  const lease = acquireEncoding('o200k');
  try {
    const whole = get_encoding('o200k_base');
    try {
      const exact = whole.encode_ordinary(text).length;
      assert.equal(lease.count(text), exact);
    } finally {
      whole.free();
    }
    const started = performance.now();
    for (const run of ['\n', ' ', '=', 'x']) assert.ok(lease.count(run.repeat(400_000)) > 0);
    assertQuick(started);
  } finally {
    lease.release();
  }
});

test('a run of letters outside the BMP is never cut between the halves of a character', () => {
  const text = `a${'\u{20000}'.repeat(3_000)}`;
  const parts = splitLongRuns(text);
  assert.ok(parts.length > 1);
  assert.equal(parts.join(''), text);
  for (const p of parts) assert.equal([...p].join(''), p, 'no lone surrogate');
  for (const p of parts) assert.ok(!/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p));
});

/** The split as a regular expression gives it, on text small enough for one: the scan must agree. */
function referenceSplit(text: string): string[] {
  const run = new RegExp(
    String.raw`(?<!\s)\s{${MAX_RUN + 1},}|(?<![\p{L}\p{M}])[\p{L}\p{M}]{${MAX_RUN + 1},}|(?<![^\s\p{L}\p{M}\p{N}])[^\s\p{L}\p{M}\p{N}]{${MAX_RUN + 1},}`,
    'gu',
  );
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(run))
    for (let cut = m.index + MAX_RUN; cut < m.index + m[0].length; cut += MAX_RUN) {
      const at = (text.charCodeAt(cut) & 0xfc00) === 0xdc00 ? cut + 1 : cut;
      parts.push(text.slice(from, at));
      from = at;
    }
  parts.push(text.slice(from));
  return parts;
}

// The runs were found with a regular expression, which overflowed the stack on a run of letters of a few
// MB (from about 4 MB on a deep stack): the session's first count of such a message threw.
test('runs are cut where a regular expression would cut them, also in a run of many MB', () => {
  const pieces = ['x', '\u00e9', '\u0301', '\u{20000}', ' ', '\n', '\u3000', '=', '\u{1F600}', '7', '\u0663', '\ud800'];
  let seed = 7;
  const random = (n: number): number => {
    seed ^= seed << 13; // xorshift32: the same samples on every run
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  for (let sample = 0; sample < 40; sample++) {
    let text = '';
    while (text.length < 12_000) text += pieces[random(pieces.length)]!.repeat(1 + random(random(2) ? 3_000 : 5));
    assert.deepEqual(
      splitLongRuns(text).map((p) => p.length),
      referenceSplit(text).map((p) => p.length),
      `sample ${sample}`,
    );
  }
  // Too long for the regular expression: the parts a short run shows, repeated.
  const started = performance.now();
  const size = 8 << 20;
  const huge = `{"path": "${'x'.repeat(size)}`;
  const parts = splitLongRuns(huge);
  assertQuick(started);
  assert.equal(parts.join(''), huge);
  assert.equal(parts.length, Math.ceil(size / MAX_RUN));
  assert.equal(parts[0], `{"path": "${'x'.repeat(MAX_RUN)}`);
  assert.ok(parts.slice(1, -1).every((p) => p === parts[1] && p.length === MAX_RUN));
  assert.equal(parts.at(-1)!.length, size % MAX_RUN || MAX_RUN);
});

test('text without such runs is counted whole (exact): code, prose, a minified line, a base64 blob', () => {
  const samples = [
    'const x = 1;\n'.repeat(2_000),
    'word '.repeat(20_000),
    `{"a":[${'1,'.repeat(5_000)}1]}`,
    Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 251)).toString('base64'),
    `${'\u00e9t\u00e9 '.repeat(5_000)}`,
  ];
  for (const s of samples) assert.equal(splitLongRuns(s).length, 1, s.slice(0, 40));
});
