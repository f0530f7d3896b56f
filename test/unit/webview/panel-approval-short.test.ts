// An approval in a very short panel (200 px tall: a 300 x 400 sidebar at 200 % zoom, or a 110 px wide
// one at 100 %): the composer's two pickers and Stop took most of the height, so the question was cut
// and Approve and Deny were under the fold of the dock's scroller. While a prompt waits in a short
// panel the pickers fold away (the message box and Stop stay), and the prompt reads whole.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
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
/** Four lines at 110 px: more than fits above the answers, so it scrolls while they stay in view. */
const long = {
  ...approval,
  title: 'Run npm install --save-dev typescript?',
  detail: 'npm install --save-dev typescript',
};

/** Which of the prompt's question, Approve and Deny, and the message box, are not wholly in view. */
const cut = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const app = document.querySelector('cd-app').shadowRoot;
    const ap = app.querySelector('cd-approval').shadowRoot;
    const box = app.querySelector('.dock-scroll').getBoundingClientRect();
    const parts = {
      question: [ap.querySelector('.title'), box],
      approve: [ap.querySelector('[data-testid="approve"]'), box],
      deny: [ap.querySelector('[data-testid="deny"]'), box],
      'message box': [app.querySelector('cd-composer').shadowRoot.querySelector('textarea'), null],
    };
    return Object.entries(parts)
      .filter(([, [el, clip]]) => {
        const r = el.getBoundingClientRect();
        const top = Math.max(0, clip ? clip.top : 0), bottom = Math.min(innerHeight, clip ? clip.bottom : innerHeight);
        return r.height === 0 || r.top < top - 0.5 || r.bottom > bottom + 0.5;
      })
      .map(([name]) => name);
  })()`) as Promise<string[]>;

const sizes = [
  [110, 200],
  [150, 200],
  [300, 400],
] as const;

test('a waiting approval in a short panel shows its question, Approve and Deny without scrolling', async () => {
  for (const [width, height] of sizes) {
    const page = await panel.open(emptyChat({ items, status: 'running', approval }), { width, height });
    await page.locator('cd-app [data-testid="approve"]').waitFor();
    assert.deepEqual(await cut(page), [], `${width} x ${height} px: not wholly in view`);
    await page.close();
  }
});

test('a long question in a short panel scrolls above Approve and Deny, which stay in view', async () => {
  const page = await panel.open(emptyChat({ items, status: 'running', approval: long }), { width: 110, height: 200 });
  await page.locator('cd-app [data-testid="approve"]').waitFor();
  const scroller = `document.querySelector('cd-app').shadowRoot.querySelector('.dock-scroll')`;
  for (const to of ['0', 'el.scrollHeight']) {
    await page.evaluate(`(() => { const el = ${scroller}; el.scrollTop = ${to}; })()`);
    const hidden = (await cut(page)).filter((p) => p !== 'question');
    assert.deepEqual(hidden, [], `scrolled to ${to}: not wholly in view`);
  }
  // Every line of the question can be brought into view above the answers.
  const reach = await page.evaluate(`(() => {
    const el = ${scroller};
    const ap = document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot;
    const q = ap.querySelector('.title'), buttons = ap.querySelector('.buttons');
    let top = false, bottom = false;
    for (let s = 0; s <= el.scrollHeight; s += 2) {
      el.scrollTop = s;
      const r = q.getBoundingClientRect(), view = el.getBoundingClientRect();
      if (r.top >= view.top - 0.5) top = true;
      if (r.bottom <= buttons.getBoundingClientRect().top + 0.5) bottom = true;
    }
    return { top, bottom };
  })()`);
  assert.deepEqual(reach, { top: true, bottom: true });
  await page.close();
});

test('the pickers come back once the approval is answered', async () => {
  const page = await panel.open(emptyChat({ items, status: 'running', approval }), { width: 110, height: 200 });
  await page.locator('cd-app [data-testid="approve"]').waitFor();
  await page.evaluate(() =>
    window.postMessage(
      { type: 'notification', method: 'chatPatch', params: [{ op: 'approval', approval: undefined }] },
      '*',
    ),
  );
  await page.locator('cd-app [data-testid="model-picker"]').waitFor({ state: 'visible' });
  await page.close();
});
