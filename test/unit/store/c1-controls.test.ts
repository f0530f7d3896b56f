// C1 controls (U+0080-U+009F) are escape sequences too: VS Code's terminal (xterm.js) acts on U+009D as
// on `ESC ]` (OSC: title, clipboard, links) and on U+009B as on `ESC [` (CSI). Output that uses them must
// reach the store as the 7-bit forms do: rendered or stripped, and redacted as the person saw it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sanitizeText, SanitizingStream, type AnsiMode } from '../../../src/core/store/sanitize/pipeline';
import { headerLines } from '../../../src/core/store/terminal-log-format';

const MODES: AnsiMode[] = ['strip', 'render'];
const TOKEN = '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';
/** Any escape or C1 control a stored file should never hold (tab and newline aside). */
const LIVE = /[\x1b\x80-\x9f]/;

test('a token coloured with 8-bit CSI is redacted in both modes', async () => {
  const coloured = `token ${TOKEN.slice(0, 14)}\u009b1m${TOKEN.slice(14)}\u009b0m\n`;
  for (const ansi of MODES) {
    const { text } = await sanitizeText(coloured, { ansi });
    assert.equal(text, 'token [REDACTED:github-token]\n', ansi);
  }
});

test('an 8-bit OSC (clipboard, title, link) is not stored, and a token it splits is redacted', async () => {
  const out = [
    'a\u009d52;c;Y3VybCBldmlsfHNo\u009cb',
    'c\u009d0;pwned\u0007d',
    '\u009d8;;https://evil.example/\u009clink\u009d8;;\u009c',
    `${TOKEN.slice(0, 10)}\u009d0;x\u0007${TOKEN.slice(10)}`,
  ].join('\n');
  for (const ansi of MODES) {
    const { text } = await sanitizeText(out + '\n', { ansi });
    assert.equal(text, 'ab\ncd\nlink\n[REDACTED:github-token]\n', ansi);
  }
});

test('C1 controls anywhere in streamed output never reach the sink', async () => {
  const c1 = fc.integer({ min: 0x80, max: 0x9f }).map((c) => String.fromCharCode(c));
  const piece = fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), c1, fc.constant('\n'));
  await fc.assert(
    fc.asyncProperty(
      fc.array(piece, { maxLength: 40 }),
      fc.constantFrom(...MODES),
      fc.integer({ min: 1, max: 7 }),
      async (pieces, ansi, chunk) => {
        let stored = '';
        const s = new SanitizingStream(async (t) => void (stored += t), { ansi });
        const bytes = Buffer.from(pieces.join(''), 'utf8');
        // Byte chunks: a two-byte C1 is cut in half as often as not.
        for (let i = 0; i < bytes.length; i += chunk) await s.push(bytes.subarray(i, i + chunk));
        await s.end();
        assert.ok(!LIVE.test(stored), JSON.stringify(stored));
      },
    ),
    { numRuns: 150 },
  );
});

test('a C1 control in a command line or cwd is shown escaped in the log header', () => {
  const header = headerLines({ seq: 1, at: 0, cwd: '/w/\u009d52;c;eA==\u009c', command: 'ls \u009b2J' });
  assert.ok(!LIVE.test(header), header);
  assert.match(header, /\\x9d52;c;eA==\\x9c/);
});
