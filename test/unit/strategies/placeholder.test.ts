import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertQuick } from '../../support/linear-time';
import fc from 'fast-check';
import {
  countLines,
  findPlaceholderPaths,
  formatMaskPlaceholder,
  maskMessage,
  parseMaskPlaceholder,
} from '../../../src/core/strategies/placeholder';

test('the placeholder is the exact published text', () => {
  assert.equal(formatMaskPlaceholder(12), 'Old environment output: (12 lines omitted)');
  assert.equal(formatMaskPlaceholder(0), 'Old environment output: (0 lines omitted)');
});

test('with a stored copy the placeholder names the file', () => {
  assert.equal(
    formatMaskPlaceholder(3, '.context-desk/outputs/call-7.txt'),
    'Old environment output: (3 lines omitted; full text: .context-desk/outputs/call-7.txt)',
  );
});

test('lines are counted like Python splitlines', () => {
  assert.equal(countLines(''), 0);
  assert.equal(countLines('one'), 1);
  assert.equal(countLines('one\n'), 1);
  assert.equal(countLines('a\nb'), 2);
  assert.equal(countLines('a\r\nb\rc\n\n'), 4);
});

test('the parser finds the path, and nothing in other text', () => {
  assert.deepEqual(parseMaskPlaceholder('Old environment output: (5 lines omitted)'), { lines: 5 });
  assert.deepEqual(parseMaskPlaceholder('Old environment output: (5 lines omitted; full text: out/a (1).txt)'), {
    lines: 5,
    storedAt: 'out/a (1).txt',
  });
  assert.equal(parseMaskPlaceholder('Old environment output: (five lines omitted)'), undefined);
  assert.equal(parseMaskPlaceholder('prefix Old environment output: (5 lines omitted)'), undefined);
  assert.equal(parseMaskPlaceholder(''), undefined);
});

test('bad line counts are refused with a clear error', () => {
  assert.throws(() => formatMaskPlaceholder(-1), /non-negative integer/);
  assert.throws(() => formatMaskPlaceholder(1.5), /non-negative integer/);
});

test('property: format then parse gives back the line count and any path', () => {
  fc.assert(
    fc.property(fc.nat(100000), fc.option(fc.string({ minLength: 1 }), { nil: undefined }), (lines, path) => {
      const parsed = parseMaskPlaceholder(formatMaskPlaceholder(lines, path));
      assert.deepEqual(parsed, path === undefined ? { lines } : { lines, storedAt: path });
    }),
  );
});

test('placeholder paths are found inside a longer text with their offsets', () => {
  const text = `intro\n${formatMaskPlaceholder(2, 'out/x.txt')}\nmiddle\n${formatMaskPlaceholder(4)}\n${formatMaskPlaceholder(9, 'b c.log')}`;
  const found = findPlaceholderPaths(text);
  assert.deepEqual(
    found.map((f) => f.path),
    ['out/x.txt', 'b c.log'],
  );
  for (const f of found) assert.equal(text.slice(f.start, f.end), f.path);
});

test('a line holds one placeholder path, also after a head that does not read whole; CRLF lines too', () => {
  const text = `see ${formatMaskPlaceholder(3, 'a) b.txt')}\r\n${formatMaskPlaceholder(3, 'c.txt')} tail\nOld environment output: (bogus) ${formatMaskPlaceholder(1, 'd.txt')}`;
  assert.deepEqual(
    findPlaceholderPaths(text).map((f) => f.path),
    ['a) b.txt', 'd.txt'],
  );
});

// A transcript in a cloned repository (any `history/*.md`) gets links from this: a line of repeated heads
// took over a second per 400 KB (quadratic), and held the extension host while the file was open.
test('a line of repeated placeholder heads is read in linear time (a loose bound: minutes before, under a second now)', () => {
  const started = performance.now();
  const head = 'Old environment output: (1 lines omitted; full text: a';
  for (const text of [head.repeat(80_000), `${head.repeat(80_000)})`])
    assert.ok(findPlaceholderPaths(text).length <= 1);
  assertQuick(started);
});

test('masking keeps role, tool call id, name and storedAt, and returns the same object each time', () => {
  const m = { role: 'tool' as const, content: 'a\nb\nc', toolCallId: 'c1', name: 'bash', storedAt: 'o/1.txt' };
  const masked = maskMessage(m);
  assert.deepEqual(masked, { ...m, content: 'Old environment output: (3 lines omitted; full text: o/1.txt)' });
  assert.equal(maskMessage(m), masked);
  assert.equal(m.content, 'a\nb\nc');
});
