import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { markdownToHtml, referenceLinks } from '../../../src/webview/lib/markdown';
import { linksUsed, markdownParts, wholeLinks } from '../../../src/webview/lib/markdownParts';

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
  '[REF]: https://example.com/second "a title"',
  '[1]: https://example.com/one',
  '  [Two  Words]:',
  '    <https://example.com/two>',
  'Cited [1], [two words] and ![pic][1][^1].',
  '[^1]: https://example.com/footnote',
  '[^1]: A footnote in words.',
  'A footnote[^1] and an escaped \\[1] and [a\\]b].',
  '[a\\]b]: https://example.com/escaped',
  '> [1]: https://example.com/quoted',
  '- [ref]: https://example.com/listed',
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
        const open = (i: number): boolean => streaming && i === parts.length - 1;
        // Each part with the definitions of the whole (found in the parts), as the panel renders it.
        const links = wholeLinks(parts.map((p, i) => referenceLinks(p, open(i))));
        const joined = parts.map((p, i) => markdownToHtml(p, open(i), links)).join('');
        assert.equal(joined, markdownToHtml(text, streaming));
        // What a part uses of them is all it needs: a change elsewhere does not render it again.
        for (const [i, p] of parts.entries())
          assert.equal(markdownToHtml(p, open(i), linksUsed(p, links) ?? {}), markdownToHtml(p, open(i), links));
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
  // A reference definition (it serves the whole text) does not make the answer one part.
  assert.deepEqual(markdownParts(`${text}[ref]: https://example.com\n`).slice(0, -1), before.slice(0, -1));
});
