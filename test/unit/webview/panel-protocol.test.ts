// What the Agent panel does with host messages it does not expect, in a real headless Chromium: a patch
// or an item kind from a newer host is left out and the conversation keeps following the host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, patch, startPanel, type Panel } from './panel-harness';
import type { ChatItem, ChatPatch } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

/** The answer's text as shown, or why there is none. */
const ANSWER = `(() => {
  const conv = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation');
  if (!conv) return document.querySelector('cd-app').shadowRoot.textContent.trim();
  return conv.shadowRoot.querySelector('.assistant .markdown')?.textContent.trim() ?? 'no answer';
})()`;

test('an unknown patch or item kind is left out; the panel keeps showing what the host sends', async () => {
  const items = [
    { kind: 'user', id: 'u1', text: 'Explain', at: 1 },
    { kind: 'chart', id: 'x0', points: [1, 2] },
    { kind: 'assistant', id: 'a1', turn: 1, streaming: true, text: 'First', tools: [] },
  ] as unknown as ChatItem[];
  const page = await panel.open(emptyChat({ status: 'running', items }));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.locator('cd-app .item.assistant').waitFor();
  await patch(page, [
    { op: 'highlight', id: 'a1' },
    { op: 'upsertItem', item: { kind: 'chart', id: 'x1' } },
  ] as unknown as ChatPatch[]);
  await patch(page, [{ op: 'appendText', id: 'a1', text: ' and second.' }]);
  await page.waitForFunction(`${ANSWER} === 'First and second.'`, null, { timeout: 5000 }).catch(() => undefined);
  assert.equal(await page.evaluate(ANSWER), 'First and second.');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a view this panel does not know (from a newer host) leaves the chat and its message box shown', async () => {
  const page = await panel.open(emptyChat());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.evaluate(() =>
    window.postMessage({ type: 'notification', method: 'showView', params: { view: 'tools' } }, '*'),
  );
  // Messages are handled in order: once a later patch shows, the unknown view has been handled too.
  const item = { kind: 'user', id: 'u-after', text: 'Shown after the unknown view.', at: 1 };
  await page.evaluate(
    (i) =>
      window.postMessage({ type: 'notification', method: 'chatPatch', params: [{ op: 'upsertItem', item: i }] }, '*'),
    item,
  );
  await page.locator('cd-app').getByText('Shown after the unknown view.').waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('cd-app [data-testid="composer"]').count(), 1, 'the message box is gone');
  assert.deepEqual(errors, []);
  await page.close();
});
