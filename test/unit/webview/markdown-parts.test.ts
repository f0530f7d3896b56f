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
  // Labels over 999 characters, which marked reads as definitions too (one of long runs of blanks).
  `[long ${' '.repeat(1000)} label]: https://example.com/blanks`,
  `Cited [Long ${' '.repeat(1200)} LABEL] and [${'x'.repeat(1000)}].`,
  `[${'x'.repeat(1000)}]: https://example.com/long`,
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

test('a part that cites a label over 999 characters (marked reads those too) is rendered with its definition', () => {
  for (const [use, def] of [
    [`[Long ${' '.repeat(1200)} LABEL]`, `[long ${' '.repeat(1000)} label]`],
    [`[${'x'.repeat(1000)}]`, `[${'X'.repeat(1000)}]`],
  ] as const) {
    const text = `Cited ${use}.\n\n${def}: https://example.com/long\n`;
    const parts = markdownParts(text, 10);
    assert.equal(parts.length, 2);
    const links = wholeLinks(parts.map((p) => referenceLinks(p)));
    assert.equal(Object.keys(links).length, 1);
    assert.deepEqual(linksUsed(parts[0]!, links), links);
    assert.match(
      markdownToHtml(parts[0]!, false, linksUsed(parts[0]!, links) ?? {}),
      /href="https:\/\/example.com\/long"/,
    );
  }
});

test('finding the labels a part uses takes linear time, also with many escaped and unclosed brackets', () => {
  const links = { a: { href: 'https://example.com', title: '' } };
  for (const text of ['\\['.repeat(100_000), '['.repeat(200_000), `[${' '.repeat(200_000)}`, '[a'.repeat(100_000)]) {
    const started = performance.now();
    linksUsed(text, links);
    assert.ok(performance.now() - started < 500, `${text.slice(0, 6)}…: ${Math.round(performance.now() - started)} ms`);
  }
});
