// The exact counter for text with long runs (bpe.ts) must count what tiktoken counts, token for token:
// its counts are shown as exact. tiktoken itself is the reference, on text it can count quickly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { PieceCounter, type BpeName } from '../../../src/core/tokens/bpe';
import { acquireEncoding, MAX_RUN } from '../../../src/core/tokens/encodings';
import { assertLinearGrowth } from '../../support/linear-growth';

const TIKTOKEN = { o200k: 'o200k_base', cl100k: 'cl100k_base' } as const;
const NAMES: BpeName[] = ['o200k', 'cl100k'];

/**
 * Units where the pattern's alternatives meet: cases, contractions (and the long s that `(?i:'s)`
 * matches), marks, digits of other scripts, every kind of blank, signs, letters outside the BMP, a lone
 * surrogate, a special token (plain text in encode_ordinary).
 */
const UNIT = fc.constantFrom(
  ...['a', 'b', 'z', 'A', 'Q', 'é', '\u0301', 'ß', 'ǅ', 'ʰ', '中', 'ـ', '\u{20000}', '\u{1D400}', '\u{1F600}'],
  ...["'", 's', 'S', 'ſ', 't', 'T', 'r', 'e', 'E', 'v', 'm', 'l', 'L', 'd', 'D'],
  ...['0', '7', '\u0663', '\u2167', '½'],
  ...[' ', '  ', '\n', '\r', '\r\n', '\t', '\v', '\f', '\u0085', '\u00a0', '\u2028', '\u3000', '\ufeff'],
  ...['=', '/', '.', ',', '-', '_', '{', '}', '(', ')', '"', '<', '>', '|', '\\', '\ud800', '\udc00', '\0'],
  '<|endoftext|>',
);
/** Runs of one unit, so pieces get long (the case the counter exists for). */
const TEXT = fc
  .array(
    fc.tuple(UNIT, fc.nat({ max: 30 })).map(([u, n]) => u.repeat(n < 24 ? 1 : 1 + (n - 23) * 40)),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

for (const name of NAMES) {
  test(`${name}: the piece counter counts what tiktoken counts (property)`, () => {
    const reference = get_encoding(TIKTOKEN[name]);
    const counter = new PieceCounter(name);
    try {
      fc.assert(
        fc.property(TEXT, (text) => counter.count(text) === reference.encode_ordinary(text).length),
        { numRuns: 400 },
      );
      // Real text too: this repository's own source and a base64 blob.
      const samples = [
        new TextDecoder().decode(new Uint8Array(Array.from({ length: 3_000 }, (_, i) => 32 + ((i * 31) % 95)))),
        Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 251)).toString('base64'),
        'function(a,b){return a.map(function(c){return c+b})};'.repeat(300),
      ];
      for (const s of samples) assert.equal(counter.count(s), reference.encode_ordinary(s).length);
    } finally {
      reference.free();
    }
  });
}

test('a counted text with runs longer than MAX_RUN gets the count tiktoken gives the whole (property)', () => {
  const lease = acquireEncoding('o200k');
  const reference = get_encoding('o200k_base');
  try {
    const long = fc
      .tuple(TEXT, fc.constantFrom('a', 'Z', '=', '\n', ' ', '\u3000', '中', '-/'), fc.nat({ max: 3 * MAX_RUN }), TEXT)
      .map(([before, unit, n, after]) => `${before}${unit.repeat(MAX_RUN + 1 + n)}${after}`);
    fc.assert(
      fc.property(long, (text) => lease.count(text) === reference.encode_ordinary(text).length),
      { numRuns: 60 },
    );
  } finally {
    reference.free();
    lease.release();
  }
});

// 4 MB of letters took ~40 s as one piece (tiktoken's merge is quadratic in a piece) and 7-10 s a MB
// cut into parts; the counter's merge is a heap, n log n.
test('the piece counter is linear on one huge piece: letters, signs, blanks', () => {
  const counter = new PieceCounter('o200k');
  let seed = 11;
  const letters = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      s += String.fromCharCode(97 + ((seed >>> 16) % 26));
    }
    return s;
  };
  assertLinearGrowth(letters, 250_000, (t) => counter.count(t));
  assertLinearGrowth(
    (n) => '='.repeat(n),
    250_000,
    (t) => counter.count(t),
  );
  assertLinearGrowth(
    (n) => '\n'.repeat(n),
    250_000,
    (t) => counter.count(t),
  );
});

test('in the bundle (nothing of tiktoken resolvable) the ranks are read beside the WASM, as the build copies them', () => {
  const hide = [
    "const Module = require('node:module');",
    'const original = Module._resolveFilename;',
    'Module._resolveFilename = function (request, ...rest) {',
    "  if (request.startsWith('tiktoken/')) throw new Error('not resolvable in the bundle');",
    '  return original.call(this, request, ...rest);',
    '};',
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'cd-ranks-'));
  const tiktoken = join(__dirname, '../../../node_modules/tiktoken');
  for (const f of ['tiktoken_bg.wasm', 'tiktoken_bg.cjs']) copyFileSync(join(tiktoken, f), join(dir, f));
  for (const f of ['o200k_base.json', 'cl100k_base.json']) copyFileSync(join(tiktoken, 'encoders', f), join(dir, f));
  const text = `x ${'='.repeat(3 * MAX_RUN)} y`;
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      [
        hide,
        "const tokens = require('./src/core/tokens');",
        `tokens.setTiktokenWasmPath(${JSON.stringify(join(dir, 'tiktoken_bg.wasm'))});`,
        `process.stdout.write(String(tokens.createTokenizer('cl100k').count(${JSON.stringify(text)})));`,
      ].join('\n'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const reference = get_encoding('cl100k_base');
  try {
    assert.equal(Number(r.stdout), reference.encode_ordinary(text).length);
  } finally {
    reference.free();
  }
});
