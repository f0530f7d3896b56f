// History marks a session written here that continues one from elsewhere: its earlier messages were
// copied from a file this workspace did not write, and the list said nothing of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

test('History marks a continued foreign session, a foreign one, and leaves an own one plain', async () => {
  const pastSessions = [
    { id: 'a', title: 'Own', createdAt: 3, turns: 1 },
    { id: 'b', title: 'Continued', createdAt: 2, turns: 4, continued: true },
    { id: 'c', title: 'Shipped', createdAt: 1, turns: 2, foreign: true },
  ];
  const page = await panel.open(emptyChat({ pastSessions }));
  await page.evaluate(() =>
    window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
  );
  await page.locator('cd-app [data-testid="history-continued"]').waitFor();
  // Playwright's locators reach into the components' shadow roots.
  const items = page.locator('cd-app [data-testid="history-item"]');
  const marks = [];
  for (const item of await items.all()) {
    const mark = item.locator('[data-testid="history-foreign"], [data-testid="history-continued"]');
    const shown =
      (await mark.count()) === 0 ? '' : `${await mark.getAttribute('data-testid')}: ${await mark.innerText()}`;
    marks.push([await item.locator('.title').innerText(), shown.replace(/\s+/g, ' ').trim()]);
  }
  assert.deepEqual(marks, [
    ['Own', ''],
    ['Continued', 'history-continued: continues one not written here'],
    ['Shipped', 'history-foreign: not written here'],
  ]);
  await page.close();
});
