// History with 1,000 sessions at 110 px (220 at 200 % zoom), where a title wraps to several lines and a
// row is two to three times the height a row is guessed to be before it is drawn: Page Up after End
// left the focused row far above the view (its place was worked out from guessed heights, and the rows
// drawn then were taller), and a page was counted in guessed rows, so it jumped past a screenful.
// The focused row ends wholly in view, and Page Up/Down move by at most a screenful.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const pastSessions = Array.from({ length: 1000 }, (_, i) => ({
  id: `s${i}`,
  title: `Session ${i}: fix the failing test in module ${i % 37}`,
  createdAt: 2_000_000 - i,
  turns: 3,
}));

const ROOT = `document.querySelector('cd-app').shadowRoot.querySelector('cd-history')`;
/** The focused row's index, and whether it is wholly inside History's view. */
const FOCUSED_ROW = `(() => {
  const h = ${ROOT}, f = h.shadowRoot.activeElement;
  if (!f) return { index: -1, inView: false };
  const r = f.getBoundingClientRect(), v = h.getBoundingClientRect();
  return { index: Number(f.dataset.index), inView: r.top >= v.top - 0.5 && r.bottom <= v.bottom + 0.5 };
})()`;

async function press(page: Page, key: string): Promise<number> {
  await page.keyboard.press(key);
  // Rows drawn by the move are measured a frame later: wait until the focused row is in view (or fail).
  await page
    .waitForFunction(`${FOCUSED_ROW}.inView`, undefined, { timeout: 3_000 })
    .catch(async () =>
      assert.fail(`${key}: the focused row is not wholly in view ${JSON.stringify(await page.evaluate(FOCUSED_ROW))}`),
    );
  return ((await page.evaluate(FOCUSED_ROW)) as { index: number }).index;
}

test('Page Up and Page Down keep the focused row in view at 110 and 300 px, moving at most a screenful', async () => {
  for (const width of [110, 300]) {
    const page = await panel.open(emptyChat({ pastSessions, sessionId: 's0' }), { width, height: 400 });
    await page.evaluate(() =>
      window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
    );
    await page.waitForFunction(`${FOCUSED_ROW}.index === 0`);
    assert.equal(await press(page, 'End'), 999, `${width} px`);
    let at = 999;
    for (const key of ['PageUp', 'PageUp', 'PageDown', 'Home', 'PageDown', 'PageDown']) {
      const next = await press(page, key);
      if (key !== 'Home') {
        assert.ok(next !== at, `${width} px: ${key} did not move`);
        // From the top of one row to the top of the other: at most the view's height.
        const [moved, view] = (await page.evaluate(`(() => {
          const h = ${ROOT}, rows = h.shadowRoot.querySelectorAll('.session');
          const lo = ${Math.min(at, next)}, hi = ${Math.max(at, next)};
          const heights = [...rows].filter((r) => r.dataset.index >= lo && r.dataset.index < hi).map((r) => r.offsetHeight);
          return [heights.length === hi - lo ? heights.reduce((a, b) => a + b, 0) : Infinity, h.clientHeight];
        })()`)) as [number, number];
        assert.ok(moved <= view, `${width} px: ${key} moved ${moved} px, past a screenful (${view} px)`);
      }
      at = next;
    }
    await page.close();
  }
});
