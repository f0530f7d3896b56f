// "Jump to latest" pressed while a scroll the keyboard started still runs: Chromium's animated keyboard
// scroll (Home here) went on after the jump and carried the view back up, the jump was undone and the
// button stayed (a flaky failure of the focus test in a full run). Keyboard scrolling in the conversation
// is now the panel's own and instant, as in VS Code's lists, so the jump is where the view ends.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPanel, type Panel } from './panel-harness';
import { richChat } from '../../../scripts/lib/panel-fixture';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation')`;

test('Jump to latest pressed just after Home ends at the newest output, following it', async () => {
  const page = await panel.open(richChat(30), { width: 300, height: 400 });
  const conversation = page.locator('cd-app [data-testid="conversation"]');
  await conversation.focus();
  await conversation.press('Home');
  // The jump as soon as the view has left the bottom (the button is there), then the view watched until
  // it has stood still for ten frames.
  const end = (await page.evaluate(`new Promise((resolve) => {
    const conv = ${CONV};
    const s = conv.shadowRoot.querySelector('.scroller');
    let jumped = false, still = 0, last = -1;
    const frame = () => {
      const jump = conv.shadowRoot.querySelector('[data-testid="jump-to-latest"]');
      if (!jumped && jump) { jumped = true; jump.click(); }
      still = jumped && s.scrollTop === last ? still + 1 : 0;
      last = s.scrollTop;
      if (still >= 10) return resolve({ gap: s.scrollHeight - s.clientHeight - s.scrollTop, following: conv.following });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`)) as { gap: number; following: boolean };
  assert.deepEqual(end, { gap: 0, following: true });
  assert.equal(await page.locator('cd-app [data-testid="jump-to-latest"]').count(), 0);
  await page.close();
});

test('Home, End, Page Up and Page Down scroll the conversation at once, and Home leaves following', async () => {
  const page = await panel.open(richChat(30), { width: 300, height: 400 });
  const conversation = page.locator('cd-app [data-testid="conversation"]');
  await conversation.focus();
  const top = () => page.evaluate(`${CONV}.shadowRoot.querySelector('.scroller').scrollTop`) as Promise<number>;
  await conversation.press('Home');
  // At once: no scroll frame (nor a row growing meanwhile) between the key and the view at the top.
  assert.equal(await top(), 0);
  assert.equal(await page.evaluate(`${CONV}.following`), false);
  await conversation.press('PageDown');
  const view = (await page.evaluate(`${CONV}.shadowRoot.querySelector('.scroller').clientHeight`)) as number;
  assert.ok((await top()) >= view / 2, 'Page Down moved less than half a screen');
  await conversation.press('PageUp');
  assert.equal(await top(), 0);
  await conversation.press('End');
  await page.waitForFunction(`${CONV}.following`);
  await page.close();
});
