import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nonUtf8EditRefusal, nonUtf8EditRefusalOf } from '../../../src/core/agent/tools';

const latin1 = Buffer.from('Caf\xe9 cr\xe8me\nplain line\n', 'latin1');

test('an edit of a Latin-1 file VS Code has open as UTF-8 is refused: saving would write U+FFFD for its letters', () => {
  const refused = nonUtf8EditRefusal('menu.txt', 'utf8', latin1);
  assert.match(
    refused ?? '',
    /^Refused: menu\.txt is not UTF-8 .* replace its 2 characters that are not UTF-8 with U\+FFFD/,
  );
  assert.match(nonUtf8EditRefusal('menu.txt', 'utf8bom', latin1) ?? '', /^Refused/);
});

test('an edit goes ahead when the file is UTF-8, UTF-16, or open in its own encoding', () => {
  // Open as Windows-1252 (Reopen with Encoding): VS Code saves it in that encoding.
  assert.equal(nonUtf8EditRefusal('menu.txt', 'windows1252', latin1), undefined);
  assert.equal(nonUtf8EditRefusal('a.txt', 'utf8', Buffer.from('café 日本 🚀\n')), undefined);
  // A U+FFFD the file holds as UTF-8 is its text, not damage.
  assert.equal(nonUtf8EditRefusal('a.txt', 'utf8', Buffer.from('bad \ufffd kept\n')), undefined);
  assert.equal(nonUtf8EditRefusal('w.txt', 'utf16le', Buffer.from('\ufeffhi\n', 'utf16le')), undefined);
});

/** `bytes` as a stream of chunks cut at `cuts` (offsets). */
async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(from, Math.max(from, cut));
    from = Math.max(from, cut);
  }
  yield bytes.subarray(from);
}

test('a large Windows-1252 file (20 MB of ASCII, one accented letter at the end) is checked whole, in chunks', async () => {
  const big = Buffer.alloc(20 * 1024 * 1024 + 3, 'a');
  big[big.length - 2] = 0xe9; // é in Windows-1252, past the first 16 MB (once the limit of the check)
  const cuts = Array.from({ length: 20 }, (_, i) => (i + 1) * 1024 * 1024);
  assert.match((await nonUtf8EditRefusalOf('big.csv', 'utf8', chunked(big, cuts))) ?? '', /replace its 1 character /);
  assert.equal(await nonUtf8EditRefusalOf('big.csv', 'windows1252', chunked(big, cuts)), undefined);
});

test('chunked: a UTF-8 character or a U+FFFD of the text split across chunks is not counted as damage', async () => {
  const text = Buffer.from('é 日本 🚀 \ufffd\n');
  for (let cut = 0; cut <= text.length; cut++)
    assert.equal(await nonUtf8EditRefusalOf('a.txt', 'utf8', chunked(text, [cut, cut + 1])), undefined, `cut ${cut}`);
  const bom = Buffer.from('\ufeffhi\n', 'utf16le');
  assert.equal(await nonUtf8EditRefusalOf('w.txt', 'utf8', chunked(bom, [1])), undefined);
});

test('property: the chunked check answers as the check of the whole bytes, wherever the chunks are cut', async () => {
  // Bytes biased to UTF-8 lead/continuation bytes and EF BF BD, where cuts matter.
  const byte = fc.constantFrom(0x61, 0x0a, 0xe9, 0xc3, 0xa9, 0xef, 0xbf, 0xbd, 0xf0, 0x9f, 0x80, 0xff, 0xfe);
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 40 }),
      fc.array(byte, { maxLength: 40 }),
      fc.array(fc.nat(80)),
      async (a, b, cuts) => {
        const bytes = Uint8Array.from([...b, ...a, ...b]);
        // The count on the whole bytes, as the check did it before it read in chunks.
        const buf = Buffer.from(bytes);
        const bad = new TextDecoder().decode(buf).match(/\ufffd/g)?.length ?? 0;
        const lost = bad - (buf.toString('latin1').match(/\xef\xbf\xbd/g)?.length ?? 0);
        const utf16 = (buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff);
        const whole = utf16 || lost <= 0 ? undefined : new RegExp(`replace its ${lost} character`);
        assert.equal(nonUtf8EditRefusal('f', 'utf8', bytes) === undefined, whole === undefined);
        const chunkedAnswer = await nonUtf8EditRefusalOf('f', 'utf8', chunked(bytes, cuts));
        if (whole === undefined) assert.equal(chunkedAnswer, undefined);
        else assert.match(chunkedAnswer ?? '', whole);
      },
    ),
    { numRuns: 500 },
  );
});
