import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { trimTrailing } from '../../src/core/trim';
import { safeName } from '../../src/core/store/names';
import { sanitizeName } from '../../src/core/mcp/names';
import { assertQuick } from '../support/linear-time';

test('trimTrailing cuts exactly what a trailing-run regex cuts', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', ',', '.', ' ', ')', '\n', '\0') }), (s) => {
      assert.equal(trimTrailing(s, ',.)'), s.replace(/[,.)]+$/, ''));
      assert.equal(trimTrailing(s, '\0'), s.replace(/\0+$/, ''));
    }),
  );
  assert.equal(trimTrailing('', ','), '');
  assert.equal(trimTrailing(',,,', ','), '');
});

test('file names from long hostile names are made in linear time (a tool name of dots before a letter)', () => {
  // `[._ ]+$` was tried from every dot: 40,000 dots took 2.4 s, 400,000 four minutes.
  const name = 'a' + '.'.repeat(400_000) + 'x';
  const started = performance.now();
  assert.match(safeName(name), /^a\.+-[0-9a-f]{8}$/);
  assert.equal(sanitizeName(name).length, 80);
  assert.equal(sanitizeName('tool..'), 'tool__');
  assertQuick(started);
});
