import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeOpenFence, escapeHtml, markdownToHtml } from '../../../src/webview/lib/markdown';

test('code blocks get a Copy button and escaped content', () => {
  const html = markdownToHtml('Run:\n\n```sh\necho "<b>"\n```\n');
  assert.match(html, /<button type="button" class="copy" data-copy aria-label="Copy code">Copy<\/button>/);
  assert.match(html, /<code class="language-sh">echo &#34;&#60;b&#62;&#34;<\/code>/);
});

test('a hostile language tag cannot break out of the class attribute', () => {
  const html = markdownToHtml('```js" onmouseover="x\nok\n```');
  assert.doesNotMatch(html, /onmouseover/);
  assert.match(html, /class="language-js"/);
});

test('streaming text with an open fence is closed so the rest stays code', () => {
  assert.equal(closeOpenFence('a\n```ts\nconst x = 1;'), 'a\n```ts\nconst x = 1;\n```\n');
  assert.equal(closeOpenFence('```\nx\n```\n'), '```\nx\n```\n');
  assert.equal(closeOpenFence('~~~~\nx\n~~~\n'), '~~~~\nx\n~~~\n~~~~\n');
  assert.equal(closeOpenFence('```\nx\n````\n'), '```\nx\n````\n');
  assert.equal(closeOpenFence('plain'), 'plain');
  const html = markdownToHtml('Here:\n```ts\nlet a', true);
  assert.match(html, /<pre><code class="language-ts">let a\n?<\/code><\/pre>/);
});

test('ordinary Markdown renders (lists, emphasis, inline code)', () => {
  const html = markdownToHtml('- **bold** and `code`\n- two');
  assert.match(html, /<li><strong>bold<\/strong> and <code>code<\/code><\/li>/);
});

test('escapeHtml escapes all five characters', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&</a>`),
    '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
  );
});
