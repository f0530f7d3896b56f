// A message the agent set aside (alone over the model's window, never sent), in a real headless Chromium:
// its bubble says so and keeps its text, which goes back into an empty message box to be shortened; a
// reload of the panel shows it the same, and a draft typed since is never replaced.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, hideAndShow, patch, startPanel, type Panel } from './panel-harness';
import type { ChatItem } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const LONG = 'Please read all of this log:\n' + 'line of a very long log\n'.repeat(12);
const items: ChatItem[] = [
  { kind: 'user', id: 'u0', text: 'Hi', at: 1 },
  { kind: 'user', id: 'u1', text: LONG, at: 2 },
];

test('a set-aside message is marked not sent and its text comes back into the empty message box', async () => {
  const page = await panel.open(emptyChat({ status: 'running', items }));
  const bubble = page.locator('cd-app [data-id="u1"] .item.user');
  await bubble.waitFor();
  await patch(page, [
    { op: 'notSent', id: 'u1' },
    { op: 'status', status: 'error' },
  ]);
  await bubble.locator('[data-testid="not-sent"]').waitFor({ timeout: 3000 });
  assert.equal(await bubble.getAttribute('aria-label'), 'You, not sent');
  assert.equal((await bubble.locator('.text').innerText()).trimEnd(), LONG.trimEnd());
  const first = page.locator('cd-app [data-id="u0"] .item.user');
  assert.equal(await first.getAttribute('aria-label'), 'You', 'only the set-aside message is marked');
  const box = page.locator('cd-app [data-testid="composer"]');
  assert.equal(await box.inputValue(), LONG);
  const drafts = await page.evaluate(
    `window.__posted.filter((m) => m.type === 'request' && m.method === 'saveDraft').map((m) => m.params.text)`,
  );
  assert.deepEqual(drafts, [LONG], 'the host keeps the draft (a reload brings it back)');

  // A reload shows the host's snapshot, which has the mark; the text is not put back a second time.
  await page.evaluate(() => Object.assign(window, { __posted: [] }));
  const marked = items.map((i) => (i.id === 'u1' ? { ...i, notSent: true } : i));
  await hideAndShow(page, emptyChat({ status: 'error', items: marked }));
  await page.locator('cd-app [data-testid="not-sent"]').waitFor({ timeout: 3000 });
  assert.equal(await page.locator('cd-app [data-testid="not-sent"]').count(), 1);
  await page.close();
});

test('a draft typed while the agent worked is not replaced by the set-aside message', async () => {
  const page = await panel.open(emptyChat({ status: 'running', items }));
  const box = page.locator('cd-app [data-testid="composer"]');
  await box.fill('my next question');
  await patch(page, [{ op: 'notSent', id: 'u1' }]);
  await page.locator('cd-app [data-testid="not-sent"]').waitFor({ timeout: 3000 });
  assert.equal(await box.inputValue(), 'my next question');
  await page.close();
});
