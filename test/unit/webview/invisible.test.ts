// What the user approves is what runs: characters that hide or reorder text are shown, everything
// else (line ends, tabs, emoji) is left as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { revealInvisible } from '../../../src/webview/lib/invisible';

test('a Trojan Source command shows its bidi overrides, and a tag character its hidden letter', () => {
  const r = revealInvisible('echo "cleaning up" \u202E; ~/ fr- mr\u202C # only echoes\u{E0041}');
  assert.equal(r.text, 'echo "cleaning up" <U+202E>; ~/ fr- mr<U+202C> # only echoes<U+E0041>');
  assert.equal(r.hidden, 3);
});

test('zero-width, escape and a lone carriage return are shown; CRLF, tabs and emoji are not', () => {
  const r = revealInvisible('rm a\u200B.txt\x1b[2K\rdone\r\n\tok ❤️ 👨‍👩‍👧');
  assert.equal(r.text, 'rm a<U+200B>.txt<U+001B>[2K<U+000D>done\r\n\tok ❤️ 👨<U+200D>👩<U+200D>👧');
  assert.equal(revealInvisible('plain text\n').hidden, 0);
});
