// What the user approves is what runs: characters that hide or reorder text are shown, everything
// else (line ends, tabs, emoji) is left as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { visibleText } from '../../../src/core/agent/tools/mcp';
import { revealInvisible } from '../../../src/webview/lib/invisible';

test('a Trojan Source command shows its bidi overrides, and a tag character its hidden letter', () => {
  const r = revealInvisible('echo "cleaning up" \u202E; ~/ fr- mr\u202C # only echoes\u{E0041}');
  assert.equal(r.text, 'echo "cleaning up" \\u{202e}; ~/ fr- mr\\u{202c} # only echoes\\u{e0041}');
  assert.equal(r.hidden, 3);
});

test('zero-width, escape and a lone carriage return are shown; CRLF, tabs and emoji are not', () => {
  const r = revealInvisible('rm a\u200B.txt\x1b[2K\rdone\r\n\tok ❤️ 👨‍👩‍👧');
  assert.equal(r.text, 'rm a\\u{200b}.txt\\u{1b}[2K\\u{d}done\r\n\tok ❤️ 👨\\u{200d}👩\\u{200d}👧');
  assert.equal(revealInvisible('plain text\n').hidden, 0);
  // What the host already made visible (approvals) counts, so the panel's warning shows for it too.
  assert.equal(revealInvisible('echo \\u{202e} x').hidden, 1);
});

test('property: every character the host shows as \\u{…} in an approval, the panel shows so on a tool card', () => {
  // A soft hyphen, U+034F, line and paragraph separators, musical and shorthand format controls drew
  // nothing on a tool card while approvals showed them.
  const codePoint = fc
    .integer({ min: 0, max: 0x10ffff })
    .filter((c) => (c < 0xd800 || c > 0xdfff) && c !== 0x0a && c !== 0x09 && c !== 0x0d);
  fc.assert(
    fc.property(codePoint, (c) => {
      const ch = String.fromCodePoint(c);
      const host = visibleText(`a${ch}b`) !== `a${ch}b`;
      assert.equal(revealInvisible(`a${ch}b`).hidden, host ? 1 : 0, `U+${c.toString(16)}`);
    }),
    { numRuns: 20_000, examples: [[0xad], [0x34f], [0x2028], [0x1d173], [0x1bca1], [0x13437]] },
  );
});
