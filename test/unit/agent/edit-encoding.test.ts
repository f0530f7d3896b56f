import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nonUtf8EditRefusal } from '../../../src/core/agent/tools';

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
