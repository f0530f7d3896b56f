// The conversation keeps only the rows around the view in the DOM (windowing.ts). A control inside a row
// that had the focus (a tool card's Arguments, a link) and was then scrolled far away (a wheel, a drag
// of the scroll bar) left with its row: the focus fell to the page, where Tab starts over from the top
// and a screen reader says nothing. It now goes to the conversation, where arrows still scroll.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FOCUSED, startPanel, type Panel } from './panel-harness';
import { richChat } from '../../../scripts/lib/panel-fixture';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation')`;

test('the focus in a row scrolled out of the DOM moves to the conversation, not the page', async () => {
  const page = await panel.open(richChat(100), { width: 300, height: 600 });
  // The last tool card's first summary (Arguments), focused as Tab would.
  const focused = await page.evaluate(`(() => {
    const cards = ${CONV}.shadowRoot.querySelectorAll('cd-tool-card');
    const summary = cards[cards.length - 1]?.shadowRoot.querySelector('summary');
    summary?.focus();
    return !!summary;
  })()`);
  assert.ok(focused, 'no tool card in view');
  assert.equal(await page.evaluate(FOCUSED), 'summary');
  // Scrolled to the top, as a wheel or the scroll bar does (no key goes to the conversation).
  await page.evaluate(`${CONV}.shadowRoot.querySelector('.scroller').scrollTop = 0`);
  await page.waitForFunction(`${CONV}.scrollTop === 0 && ${CONV}.updateComplete.then(() => true)`);
  await page.waitForFunction(`${FOCUSED} !== 'summary'`);
  assert.equal(await page.evaluate(FOCUSED), 'conversation');
  // It stayed where the person scrolled to.
  assert.equal(await page.evaluate(`${CONV}.shadowRoot.querySelector('.scroller').scrollTop`), 0);
  await page.close();
});
