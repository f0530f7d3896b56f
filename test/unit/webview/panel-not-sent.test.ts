// A message the agent set aside (alone over the model's window, never sent), in a real headless Chromium:
// its bubble says so and keeps its text, which goes back into an empty message box to be shortened; a
// reload of the panel shows it the same, and a draft typed since is never replaced. Words typed while the
// host takes a message are not cleared with it.
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

test('words typed after Enter while the host is still answering are not cleared with the sent message', async () => {
  const page = await panel.open(emptyChat());
  // Hold the host's answer to `send` until the words are typed (a busy extension host).
  await page.evaluate(`(() => {
    const post = window.postMessage.bind(window);
    window.__held = [];
    window.postMessage = (m, o) => {
      const send = m && m.type === 'response' && window.__posted.some((p) => p.id === m.id && p.method === 'send');
      if (send) window.__held.push(m); else post(m, o);
    };
    window.__release = () => window.__held.splice(0).forEach((m) => post(m, '*'));
  })()`);
  const box = page.locator('cd-app [data-testid="composer"]');
  await box.fill('Fix the parser.');
  await box.press('Enter');
  await page.waitForFunction('window.__held.length === 1');
  await box.pressSequentially(' Then run the tests.');
  assert.equal(await box.inputValue(), 'Fix the parser. Then run the tests.');
  await page.evaluate('window.__release()');
  // The answer is handled within a few frames: wait for the box to change, or 2 s.
  for (let i = 0; i < 40 && (await box.inputValue()) === 'Fix the parser. Then run the tests.'; i++)
    await page.waitForTimeout(50);
  assert.equal(await box.inputValue(), 'Then run the tests.');
  const sent = await page.evaluate(
    `window.__posted.filter((m) => m.type === 'request' && m.method === 'send').map((m) => m.params.text)`,
  );
  assert.deepEqual(sent, ['Fix the parser.']);
  await page.close();
});
