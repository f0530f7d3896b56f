// A paragraph of 10,000 lines (a log the model echoed without blank lines, or one pasted as a message)
// took 22 s to open the panel and as long again to scroll: each paragraph took the direction of its own
// text with `unicode-bidi: plaintext`, whose layout in Chromium grows much faster than the text (0.8 s at
// 200 KB, 25 s at 750 KB). A paragraph in Hebrew or Arabic still reads from the right.
// One word of 40,000 letters (a base64 blob, a minified line) took 17 s in an answer or a message and
// over 30 s in a notice: in VS Code's font on Linux (system-ui) Chromium shaped the rest of a kerned word
// again for each line it wrapped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import type { ChatItem, ChatSnapshot } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot`;

/** 10,000 lines, about 750 KB, no blank line: one Markdown paragraph. */
const LOG = Array.from(
  { length: 10_000 },
  (_, i) => `line ${i}: value${i} = compute(${i}) + "${'x'.repeat(40)}";`,
).join('\n');

/** Opens the panel with `items` and scrolls to the top; the milliseconds until both were drawn. */
async function openAndScroll(items: ChatItem[], over: Partial<ChatSnapshot> = {}): Promise<{ page: Page; ms: number }> {
  const start = Date.now();
  const page = await panel.open(emptyChat({ items, ...over }), { width: 300, height: 400 });
  await page.locator('cd-app .item').last().waitFor();
  await page.evaluate(`(async () => {
    const s = ${CONV}.querySelector('.scroller');
    s.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    s.scrollTop = s.scrollHeight / 2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  })()`);
  return { page, ms: Date.now() - start };
}

test('an answer and a message of 10,000 lines without a blank line open and scroll in seconds', async () => {
  for (const item of [
    { kind: 'assistant', id: 'a1', turn: 1, streaming: false, text: LOG, tools: [] },
    { kind: 'user', id: 'u1', text: LOG, at: 1 },
  ] as ChatItem[]) {
    const { page, ms } = await openAndScroll([item]);
    // Measured: 22 s before, about 1.5 s after on a 2-core machine shared with other work.
    assert.ok(ms < 10_000, `${item.kind}: ${ms} ms to open and scroll`);
    await page.close();
  }
});

test('one word of 40,000 letters in an answer, a message, a notice and an approval opens in seconds', async () => {
  const word = 'A'.repeat(40_000);
  for (const [what, items, over] of [
    ['answer', [{ kind: 'assistant', id: 'a1', turn: 1, streaming: false, text: word, tools: [] }], {}],
    ['message', [{ kind: 'user', id: 'u1', text: word, at: 1 }], {}],
    ['notice', [{ kind: 'notice', id: 'n1', level: 'error', text: word }], {}],
    [
      'approval',
      [{ kind: 'user', id: 'u1', text: 'Edit it', at: 1 }],
      { status: 'running', approval: { id: 'ap1', kind: 'edit', title: `Apply this edit to ${word}?`, detail: word } },
    ],
  ] as [string, ChatItem[], Partial<ChatSnapshot>][]) {
    const { page, ms } = await openAndScroll(items, over);
    if (what === 'approval') await page.locator('cd-app [data-testid="approval"]').waitFor();
    // Measured: 17 s to over 30 s before, under 2 s after.
    assert.ok(ms < 10_000, `${what}: ${ms} ms to open and scroll`);
    await page.close();
  }
});

test('each paragraph still takes the direction of its own text: Hebrew from the right, English from the left', async () => {
  const hebrew = 'שלום עולם, זו פסקה בעברית';
  const { page } = await openAndScroll([
    { kind: 'user', id: 'u1', text: hebrew, at: 1 },
    {
      kind: 'assistant',
      id: 'a1',
      turn: 1,
      streaming: false,
      text: `${hebrew}\n\nAn English paragraph.\n\n- ${hebrew}\n\n> ${hebrew}`,
      tools: [],
    },
  ]);
  const sides = await page.evaluate(`(() => {
    const side = (el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      const text = r.getBoundingClientRect(), box = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      const left = box.left + parseFloat(cs.paddingLeft), right = box.right - parseFloat(cs.paddingRight);
      return Math.abs(text.right - right) < 2 ? 'right' : Math.abs(text.left - left) < 2 ? 'left' : 'middle';
    };
    const c = ${CONV};
    return [c.querySelector('.user .text'), ...c.querySelectorAll('.markdown p, .markdown li')].map(side);
  })()`);
  assert.deepEqual(sides, ['right', 'right', 'left', 'right', 'right']);
  await page.close();
});
