// History with thousands of sessions: only the rows around the view are in the DOM (2,000 rows took
// 2.5 s to open at 300 px), the list is one tab stop where arrows, Page Up/Down, Home and End move
// between sessions, and each row tells a screen reader its place in the whole list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const N = 2000;
const pastSessions = Array.from({ length: N }, (_, i) => ({
  id: `s${i}`,
  title: `Session ${i}: fix the failing test in module ${i}`,
  createdAt: 2_000_000 - i,
  turns: 3,
}));

async function openHistory(width: number): Promise<Page> {
  const page = await panel.open(emptyChat({ pastSessions, sessionId: 's5' }), { width, height: 500 });
  await page.evaluate(() =>
    window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
  );
  await page.locator('cd-app [data-testid="history-item"]').first().waitFor();
  return page;
}

/** The focused row's title and place, and how many rows are in the DOM and tab stops. */
const FOCUS = `(() => {
  const root = document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot;
  const rows = [...root.querySelectorAll('[data-testid="history-item"]')];
  const f = root.activeElement;
  return {
    focused: f ? f.querySelector('.title').textContent + ' @' + f.getAttribute('aria-posinset') + '/' + f.getAttribute('aria-setsize') : '',
    rows: rows.length,
    stops: rows.filter((r) => r.tabIndex === 0).length,
    visible: f ? f.getBoundingClientRect().bottom <= innerHeight + 1 && f.getBoundingClientRect().top >= 0 : false,
  };
})()`;

type Focus = { focused: string; rows: number; stops: number; visible: boolean };

test('History of 2,000 sessions renders only the rows around the view, at 300, 220 and 110 px', async () => {
  for (const width of [300, 220, 110]) {
    const page = await openHistory(width);
    const rows = await page.locator('cd-app [data-testid="history-item"]').count();
    assert.ok(rows > 0 && rows < 80, `${width} px: ${rows} rows in the DOM`);
    const list = page.locator('cd-app [role="listbox"]');
    assert.equal(await list.getAttribute('aria-label'), 'Past sessions');
    await page.close();
  }
});

test('opened, History puts the focus on the open session, so arrows work at once', async () => {
  const page = await openHistory(300);
  await page.waitForFunction(
    `document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot.activeElement !== null`,
  );
  assert.equal(((await page.evaluate(FOCUS)) as Focus).focused, 'Session 5: fix the failing test in module 5 @6/2000');
  await page.keyboard.press('ArrowDown');
  assert.equal(((await page.evaluate(FOCUS)) as Focus).focused, 'Session 6: fix the failing test in module 6 @7/2000');
  await page.close();
});

test('arrows, Page Down, End and Home move between sessions in History; one tab stop', async () => {
  const page = await openHistory(300);
  const at = async (): Promise<Focus> => (await page.evaluate(FOCUS)) as Focus;
  // Tab from "Back to the chat" reaches the open session (the list's one tab stop).
  await page.locator('cd-app cd-history button.link').focus();
  await page.keyboard.press('Tab');
  let f = await at();
  assert.equal(f.focused, 'Session 5: fix the failing test in module 5 @6/2000');
  assert.equal(f.stops, 1);
  await page.keyboard.press('ArrowDown');
  assert.equal((await at()).focused, 'Session 6: fix the failing test in module 6 @7/2000');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal((await at()).focused, 'Session 4: fix the failing test in module 4 @5/2000');
  await page.keyboard.press('End');
  f = await at();
  assert.equal(f.focused, 'Session 1999: fix the failing test in module 1999 @2000/2000');
  assert.ok(f.visible, 'the last session is scrolled into view');
  assert.ok(f.rows < 80, `${f.rows} rows in the DOM at the end`);
  assert.equal(f.stops, 1);
  await page.keyboard.press('PageUp');
  f = await at();
  const place = Number(/@(\d+)\//.exec(f.focused)?.[1]);
  assert.ok(place < 2000 && place > 1980, f.focused);
  assert.ok(f.visible);
  await page.keyboard.press('Home');
  f = await at();
  assert.equal(f.focused, 'Session 0: fix the failing test in module 0 @1/2000');
  assert.ok(f.visible);
  // Tab leaves the list (one stop), Shift+Tab comes back to the same row.
  await page.keyboard.press('Tab');
  assert.equal((await at()).focused, '');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await at()).focused, 'Session 0: fix the failing test in module 0 @1/2000');
  await page.close();
});

test('Enter on a session in History asks the host to open it; a wheel scroll keeps a tab stop', async () => {
  const page = await openHistory(300);
  await page.locator('cd-app cd-history button.link').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction("window.__posted.some((m) => m.method === 'openSession')");
  const asked = await page.evaluate(
    "window.__posted.filter((m) => m.method === 'openSession').map((m) => m.params.sessionId)",
  );
  assert.deepEqual(asked, ['s6']);
  // A wheel scroll far down (the mouse over the list).
  const box = await page.locator('cd-app cd-history').boundingBox();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await page.mouse.wheel(0, 60_000);
  await page.waitForFunction(`(() => {
    const root = document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot;
    return [...root.querySelectorAll('[data-testid="history-item"]')].some((r) => Number(r.getAttribute('aria-posinset')) > 500);
  })()`);
  const f = (await page.evaluate(FOCUS)) as Focus;
  assert.equal(f.stops, 1, 'the list can still be reached with Tab');
  await page.close();
});
