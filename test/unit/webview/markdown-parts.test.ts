import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { markdownToHtml } from '../../../src/webview/lib/markdown';
import { markdownParts } from '../../../src/webview/lib/markdownParts';

/** Lines of Markdown that meet at part boundaries: lists, fences, tables, quotes, HTML, references. */
const LINES = [
  'A paragraph with **bold** and `code`.',
  'continued *emphasis',
  'closed* here',
  '- item',
  '- [x] done',
  '  - nested item',
  '1. first',
  '2) second',
  '10. tenth',
  '  indented continuation',
  '    indented code',
  '\tTabbed',
  '```',
  '```ts',
  '````',
  '~~~',
  '``` `not a fence`',
  '```\t',
  '> quoted',
  '> ```',
  '| a | b |',
  '| --- | --- |',
  '| 1 | 2 |',
  '# Heading',
  'Setext',
  '===',
  '---',
  '***',
  '* * *',
  '<details><summary>More</summary>',
  '</details>',
  '<!-- note',
  '-->',
  '[ref]: https://example.com/ref',
  'See [ref] and [link][ref].',
  '<https://example.com/auto>',
  '   - three-space item',
  ' 3. one-space ordered',
  '+ plus item',
  '>',
  'Term with trailing spaces  ',
  '\\',
  '',
  '',
];

test('the parts of any Markdown render to what the whole renders to, streaming or not', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...LINES), { maxLength: 40 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 80 }),
      fc.boolean(),
      (lines, trailingNewline, size, streaming) => {
        const text = lines.join('\n') + (trailingNewline ? '\n' : '');
        const parts = markdownParts(text, size);
        assert.equal(parts.join(''), text);
        const joined = parts.map((p, i) => markdownToHtml(p, streaming && i === parts.length - 1)).join('');
        assert.equal(joined, markdownToHtml(text, streaming));
      },
    ),
    { numRuns: 3000 },
  );
});

test('a long answer is cut at blank lines before new blocks, so a streamed chunk changes only its last part', () => {
  const para = (i: number): string => `Paragraph ${i} with **bold**.\n\n- a\n- b\n\n\`\`\`\ncode ${i}\n\n\`\`\`\n\n`;
  let text = '';
  for (let i = 0; text.length < 200_000; i++) text += para(i);
  const before = markdownParts(text);
  assert.ok(before.length >= 40, `${before.length} parts`);
  assert.ok(before.every((p) => p.length < 8_192));
  const after = markdownParts(`${text}More text streamed`);
  assert.deepEqual(after.slice(0, -1), before.slice(0, -1));
  // A reference definition serves the whole text: no cuts.
  assert.equal(markdownParts(`${text}[ref]: https://example.com\n`).length, 1);
});
