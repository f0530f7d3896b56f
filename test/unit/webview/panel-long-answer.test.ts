// A 200 KB answer shown at once (a resumed session, a snapshot, or a stream whose first chunks are that
// long) in a real headless Chromium: the first draw holds the whole text, with the newest parts formatted
// and the rest as written, and the rest is formatted over the next frames: parsing and sanitizing all of
// it before the first draw took seconds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, patch, startPanel, type Panel } from './panel-harness';
import { PARTS_PER_FRAME, markdownParts } from '../../../src/webview/lib/markdownParts';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot`;

/** About 200 KB of formatted paragraphs and lists, and how many bold words it has. */
function longAnswer(): { text: string; n: number } {
  let text = '';
  let n = 0;
  for (; text.length < 200_000; n++) text += `Paragraph ${n} with **bold ${n}** and \`code\`.\n\n- a\n- b\n\n`;
  return { text, n };
}

/**
 * Posts `message` and returns the answer as its first draw showed it: watched from the DOM change itself,
 * since a busy machine can run the next formatting round before the next frame.
 */
async function firstDraw(page: Page, message: unknown): Promise<{ text: string; bold: number }> {
  await page.evaluate((m) => Object.assign(window, { __m: m }), message);
  return (await page.evaluate(`new Promise((resolve) => {
    const root = ${CONV};
    const seen = new MutationObserver(() => {
      const md = root.querySelector('.assistant .markdown');
      if (!md) return;
      seen.disconnect();
      resolve({ text: md.textContent, bold: md.querySelectorAll('strong').length });
    });
    seen.observe(root, { subtree: true, childList: true });
    window.postMessage(window.__m, '*');
  })`)) as { text: string; bold: number };
}

/** The first draw holds all of the text and formats only about PARTS_PER_FRAME parts, the newest first. */
function assertDrawnFromEnd(first: { text: string; bold: number }, text: string, n: number): void {
  const parts = markdownParts(text).length;
  assert.ok(parts > PARTS_PER_FRAME * 2, `only ${parts} parts`);
  assert.match(first.text, /Paragraph 0 with/);
  assert.ok(first.text.includes(`bold ${n - 1}`) && first.bold > 0, 'the newest part is not formatted');
  assert.ok(
    first.bold <= Math.ceil((n * PARTS_PER_FRAME) / parts) * 2,
    `the first draw parsed ${first.bold} of ${n} paragraphs`,
  );
}

test('a 200 KB answer is drawn whole at once, formatted from its end, and formatted entirely soon after', async () => {
  const { text, n } = longAnswer();
  const page = await panel.open(emptyChat());
  const first = await firstDraw(page, {
    type: 'notification',
    method: 'chatSnapshot',
    params: emptyChat({
      items: [
        { kind: 'user', id: 'u1', text: 'Explain everything', at: 1 },
        { kind: 'assistant', id: 'a1', turn: 1, streaming: false, text, tools: [] },
      ],
    }),
  });
  assertDrawnFromEnd(first, text, n);
  await page.waitForFunction(
    `${CONV}.querySelectorAll('.assistant strong').length === ${n} && !${CONV}.querySelector('.assistant pre.plain')`,
    null,
    { timeout: 60_000 },
  );
  await page.close();
});

test('a streamed answer whose first chunk is 200 KB is drawn the same way and keeps the chunks after it', async () => {
  const { text, n } = longAnswer();
  const page = await panel.open(
    emptyChat({ status: 'running', items: [{ kind: 'user', id: 'u1', text: 'Go', at: 1 }] }),
  );
  const first = await firstDraw(page, {
    type: 'notification',
    method: 'chatPatch',
    params: [{ op: 'upsertItem', item: { kind: 'assistant', id: 'a1', turn: 1, streaming: true, text, tools: [] } }],
  });
  assertDrawnFromEnd(first, text, n);
  // More chunks while the rest is still being formatted; the last opens a fence the stream has not closed.
  await patch(page, [{ op: 'appendText', id: 'a1', text: 'Tail **one**.\n\n```js\nconst x = "*a*";\n' }]);
  await patch(page, [{ op: 'appendText', id: 'a1', text: 'x++;\n' }]);
  await page.waitForFunction(
    `${CONV}.querySelectorAll('.assistant strong').length === ${n + 1} && !${CONV}.querySelector('.assistant pre.plain')`,
    null,
    { timeout: 60_000 },
  );
  assert.equal(
    await page.evaluate(`${CONV}.querySelector('.assistant code.language-js').textContent`),
    'const x = "*a*";\nx++;',
  );
  // The stream ends: the fence it left open stays code, and nothing is drawn twice.
  await patch(page, [
    {
      op: 'upsertItem',
      item: {
        kind: 'assistant',
        id: 'a1',
        turn: 1,
        streaming: false,
        text: `${text}Tail **one**.\n\n\`\`\`js\nconst x = "*a*";\nx++;\n`,
        tools: [],
      },
    },
  ]);
  await page.waitForFunction(`${CONV}.querySelector('.assistant[aria-busy="false"]')`);
  const end = (await page.evaluate(
    `(() => { const md = ${CONV}.querySelector('.assistant .markdown'); return { bold: md.querySelectorAll('strong').length, code: md.querySelectorAll('code.language-js').length, ends: md.textContent.trimEnd().endsWith('x++;') }; })()`,
  )) as { bold: number; code: number; ends: boolean };
  assert.deepEqual(end, { bold: n + 1, code: 1, ends: true });
  await page.close();
});

test('a long answer that cites a reference defined at its end is drawn in parts, every citation a link', async () => {
  let text = '';
  let n = 0;
  for (; text.length < 200_000; n++) text += `Paragraph ${n} with **bold ${n}** cites [1].\n\n- a\n- b\n\n`;
  text += '[1]: https://example.com/fir';
  const page = await panel.open(
    emptyChat({ status: 'running', items: [{ kind: 'user', id: 'u1', text: 'Go', at: 1 }] }),
  );
  const first = await firstDraw(page, {
    type: 'notification',
    method: 'chatPatch',
    params: [{ op: 'upsertItem', item: { kind: 'assistant', id: 'a1', turn: 1, streaming: true, text, tools: [] } }],
  });
  assertDrawnFromEnd(first, text, n);
  // The definition streams on: every citation follows it, in the parts drawn long before too.
  await patch(page, [{ op: 'appendText', id: 'a1', text: 'st-source\n' }]);
  const links = (href: string): string => `${CONV}.querySelectorAll('.assistant a[href="${href}"]').length`;
  await page.waitForFunction(`${links('https://example.com/first-source')} === ${n}`, null, { timeout: 60_000 });
  assert.equal(await page.evaluate(links('https://example.com/fir')), 0);
  assert.equal(await page.evaluate(`${CONV}.querySelector('.assistant pre.plain')`), null);
  await page.close();
});
