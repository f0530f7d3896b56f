// After an action that removes the control it was done with, the focus lands somewhere useful, not on
// the page: "Back to the chat" in History or the setup, a session opened from History, Save in the
// setup, and the error line's Dismiss each left the focus on <body>, where Tab starts over from the top
// and a screen reader says nothing. Opening the setup puts the focus on its first field; "Jump to latest"
// leaves it on the conversation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, startPanel, type Panel } from './panel-harness';
import { SETUP_FORM } from '../../../scripts/lib/panel-fixture';
import type { ChatItem } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const pastSessions = ['a', 'b', 'c'].map((id, i) => ({ id, title: `Session ${id}`, createdAt: 3 - i, turns: 1 }));

const showView = (page: Page, view: string): Promise<void> =>
  page.evaluate(
    (v) => window.postMessage({ type: 'notification', method: 'showView', params: { view: v } }, '*'),
    view,
  );

/** Waits for the focus to settle on `want`; the message says where it is instead. */
async function focusIs(page: Page, want: string, what: string): Promise<void> {
  const ok = await page
    .waitForFunction(`${FOCUSED} === ${JSON.stringify(want)}`, null, { timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  assert.ok(ok, `${what}: the focus is on ${String(await page.evaluate(FOCUSED))}, not ${want}`);
}

test('"Back to the chat" and a session opened from History give the focus to the message box', async () => {
  const page = await panel.open(emptyChat({ pastSessions, sessionId: 'a' }), { width: 300, height: 400 });
  await page.evaluate((r) => Object.assign(window, { __results: r }), { openSession: { opened: true } });
  await showView(page, 'history');
  await focusIs(page, 'history-item', 'History opened');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await focusIs(page, 'composer', 'after Back to the chat');
  await showView(page, 'history');
  await focusIs(page, 'history-item', 'History opened again');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.locator('cd-app cd-history').waitFor({ state: 'detached' });
  await focusIs(page, 'composer', 'after opening a session');
  await page.close();
});

test('the setup opened from the keyboard focuses its first field; Back and Save give the focus to the message box', async () => {
  const page = await panel.open(emptyChat(), { width: 300, height: 400 });
  await page.evaluate((r) => Object.assign(window, { __results: r }), {
    getSetup: SETUP_FORM,
    saveSetup: { ok: true, url: '', message: 'Saved', models: [] },
  });
  const picker = page.locator('cd-app [data-testid="model-picker"]');
  await picker.focus();
  await picker.press('End');
  await picker.press('Enter');
  await focusIs(page, 'setup-provider', 'the setup opened');
  await page.locator('cd-app cd-setup button.link').press('Enter');
  await focusIs(page, 'composer', 'after Back to the chat from the setup');
  await picker.focus();
  await picker.press('End');
  await picker.press('Enter');
  await focusIs(page, 'setup-provider', 'the setup opened again');
  await page.locator('cd-app [data-testid="setup-save"]').press('Enter');
  await page.locator('cd-app cd-setup').waitFor({ state: 'detached' });
  await focusIs(page, 'composer', 'after Save');
  await page.close();
});

test("the error line's Dismiss gives the focus to the message box", async () => {
  const items: ChatItem[] = [
    {
      kind: 'notice',
      id: 'n1',
      level: 'error',
      text: 'No key',
      action: { label: 'Open settings', action: 'configure' },
    },
  ] as ChatItem[];
  const page = await panel.open(emptyChat({ items }), { width: 300, height: 400 });
  await page.evaluate(() => Object.assign(window, { __errors: { noticeAction: 'The settings could not be opened' } }));
  await page.locator('cd-app .notice vscode-button').click();
  const dismiss = page.locator('cd-app [data-testid="panel-error"] button.dismiss');
  await dismiss.focus();
  await dismiss.press('Enter');
  await page.locator('cd-app [data-testid="panel-error"]').waitFor({ state: 'detached' });
  await focusIs(page, 'composer', 'after Dismiss');
  await page.close();
});

test('"Jump to latest" from the keyboard leaves the focus on the conversation, where arrows scroll', async () => {
  const { richChat } = await import('../../../scripts/lib/panel-fixture');
  const page = await panel.open(richChat(30), { width: 300, height: 400 });
  const conversation = page.locator('cd-app [data-testid="conversation"]');
  await conversation.focus();
  // Home scrolls at once (the panel's own keyboard scrolling): the button is there as soon as it has.
  await conversation.press('Home');
  const jump = page.locator('cd-app [data-testid="jump-to-latest"]');
  await jump.waitFor();
  await jump.focus();
  await jump.press('Enter');
  await jump.waitFor({ state: 'detached' });
  await focusIs(page, 'conversation', 'after Jump to latest');
  await page.close();
});
