// A 200 KB answer shown at once (a resumed session, a snapshot) in a real headless Chromium: the first
// draw holds the whole text, with the newest parts formatted and the rest as written, and the rest is
// formatted over the next frames: parsing and sanitizing all of it before the first draw took seconds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import { PARTS_PER_FRAME, markdownParts } from '../../../src/webview/lib/markdownParts';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot`;

test('a 200 KB answer is drawn whole at once, formatted from its end, and formatted entirely soon after', async () => {
  let text = '';
  let n = 0;
  for (; text.length < 200_000; n++) text += `Paragraph ${n} with **bold ${n}** and \`code\`.\n\n- a\n- b\n\n`;
  const parts = markdownParts(text).length;
  assert.ok(parts > PARTS_PER_FRAME * 2, `only ${parts} parts`);
  const page = await panel.open(emptyChat());
  await page.evaluate((m) => Object.assign(window, { __m: m }), {
    type: 'notification',
    method: 'chatSnapshot',
    params: emptyChat({
      items: [
        { kind: 'user', id: 'u1', text: 'Explain everything', at: 1 },
        { kind: 'assistant', id: 'a1', turn: 1, streaming: false, text, tools: [] },
      ],
    }),
  });
  // At the first frame that shows the answer: all its text is there, the newest part formatted.
  const first = (await page.evaluate(`new Promise((resolve) => {
    window.postMessage(window.__m, '*');
    function check() {
      const md = ${CONV}.querySelector('.assistant .markdown');
      if (!md) return requestAnimationFrame(check);
      resolve({ text: md.textContent, bold: md.querySelectorAll('strong').length, asWritten: md.querySelectorAll('pre.plain').length });
    }
    requestAnimationFrame(check);
  })`)) as { text: string; bold: number; asWritten: number };
  assert.match(first.text, /Paragraph 0 with/);
  assert.ok(first.text.includes(`bold ${n - 1}`) && first.bold > 0, 'the newest part is not formatted');
  assert.ok(
    first.bold <= Math.ceil((n * PARTS_PER_FRAME) / parts) * 2,
    `the first draw parsed ${first.bold} of ${n} paragraphs`,
  );
  await page.waitForFunction(
    `${CONV}.querySelectorAll('.assistant strong').length === ${n} && !${CONV}.querySelector('.assistant pre.plain')`,
    null,
    { timeout: 60_000 },
  );
  await page.close();
});
