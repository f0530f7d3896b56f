// Right-to-left text outside the messages (which take each paragraph's direction, message.ts): a History
// title is the person's first instruction, and a Hebrew or Arabic one was laid out left to right, its
// closing question mark on the wrong side and the title against the left edge; a notice's text can quote
// what a server said. Each now takes the direction of its own text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const HEBREW = 'למה הבדיקה נכשלת?';
const ARABIC = 'فشل الاتصال بالخادم.';

/** Where the text's first letter and its closing mark are drawn, and the element's direction. */
function layout(page: Page, find: string): Promise<{ dir: string; first: number; last: number }> {
  return page.evaluate(`(() => {
    const el = ${find};
    const text = [...el.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
    const at = (i) => {
      const r = document.createRange();
      r.setStart(text, i);
      r.setEnd(text, i + 1);
      return r.getBoundingClientRect().left;
    };
    const s = text.textContent;
    const start = s.length - s.trimStart().length;
    return { dir: getComputedStyle(el).direction, first: at(start), last: at(s.trimEnd().length - 1) };
  })()`) as Promise<{ dir: string; first: number; last: number }>;
}

test('a right-to-left History title reads right to left, its question mark at its left end', async () => {
  const pastSessions = [{ id: 'a', title: HEBREW, createdAt: 2, turns: 1 }];
  const page = await panel.open(emptyChat({ pastSessions }));
  await page.evaluate(() =>
    window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
  );
  await page.locator('cd-app [data-testid="history-item"]').first().waitFor();
  const l = await layout(
    page,
    `document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot.querySelector('[data-testid="history-item"] .title')`,
  );
  assert.ok(l.last < l.first, `the question mark is drawn at ${l.last}, right of the first letter at ${l.first}`);
  assert.equal(l.dir, 'rtl');
  await page.close();
});

test('a right-to-left notice reads right to left, its full stop at its left end', async () => {
  const items = [{ kind: 'notice' as const, id: 'n', level: 'error' as const, text: ARABIC }];
  const page = await panel.open(emptyChat({ items }));
  const find = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot.querySelector('.notice .text')`;
  await page.waitForFunction(`!!${find}`);
  const l = await layout(page, find);
  assert.ok(l.last < l.first, `the full stop is drawn at ${l.last}, right of the first letter at ${l.first}`);
  assert.equal(l.dir, 'rtl');
  await page.close();
});
