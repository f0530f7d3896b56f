// An approval in a 300 x 400 px sidebar at 200 % zoom (150 x 200 CSS px): the dock could
// take 70 % of the height and the message box took most of that, so the prompt had a sliver a few
// pixels tall: its question could not be read, nor Approve seen when it had the focus. While a prompt
// waits the dock may take more of the panel, and a panel that short keeps the message box to two lines
// (it grew to its wrapped placeholder). The message box stays in view. Also at 110 x 400 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, startPanel, type Panel } from './panel-harness';
import type { ChatItem } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const items: ChatItem[] = [
  { kind: 'user', id: 'u1', text: 'Install the dependencies', at: 1 },
  { kind: 'assistant', id: 'a1', turn: 1, streaming: false, text: 'Installing them.', tools: [] },
];
const approval = { id: 'ap1', kind: 'command' as const, title: 'Run npm install?', detail: 'npm install' };

/** How much of `selector` (in the approval's shadow root, or the composer) is in view, 0 to 1. */
const shown = (page: Page, selector: string): Promise<number> =>
  page.evaluate(`(() => {
    const app = document.querySelector('cd-app').shadowRoot;
    const el = ${JSON.stringify(selector)} === 'composer'
      ? app.querySelector('cd-composer')
      : app.querySelector('cd-approval').shadowRoot.querySelector(${JSON.stringify(selector)});
    const r = el.getBoundingClientRect();
    let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
    if (${JSON.stringify(selector)} !== 'composer') {
      const s = app.querySelector('.dock-scroll').getBoundingClientRect();
      top = Math.max(top, s.top);
      bottom = Math.min(bottom, s.bottom);
    }
    return Math.max(0, bottom - top) / r.height;
  })()`) as Promise<number>;

test('at 200 % zoom a waiting approval shows its question, and Approve when it has the focus', async () => {
  for (const [width, height] of [
    [150, 200],
    [110, 400],
  ]) {
    const page = await panel.open(emptyChat({ items, status: 'running', approval }), { width, height });
    await page.waitForFunction(`${FOCUSED} === 'approval'`);
    assert.equal(await shown(page, '.title'), 1, `${width} x ${height} px: the question is not wholly in view`);
    for (let i = 0; i < 3 && (await page.evaluate(FOCUSED)) !== 'approve'; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(FOCUSED), 'approve');
    assert.equal(
      await shown(page, '[data-testid="approve"]'),
      1,
      `${width} x ${height} px: Approve is not wholly in view`,
    );
    assert.equal(await shown(page, 'composer'), 1, `${width} x ${height} px: the message box is not wholly in view`);
    await page.close();
  }
});
