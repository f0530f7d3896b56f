// What the meter's figures and History's "not written here" marks mean was said only in `title`
// tooltips, which a keyboard cannot open and a screen reader does not read: each explanation is reachable
// from the keyboard as text (the meter's "What these figures mean"; a marked History row shows it while
// focused) and is a marked row's accessible description.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

/** The titles in the meter (but the toggle's own) that its open details do not say in visible text. */
const unsaid = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const m = document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot;
    const titles = [...m.querySelectorAll('[title]')]
      .filter((e) => !e.classList.contains('line'))
      .map((e) => e.getAttribute('title'))
      .filter((t) => t);
    // innerText is the text drawn: not a closed disclosure's, nor a tooltip.
    const shown = m.querySelector('.details').innerText.replace(/\\s+/g, ' ');
    return [...new Set(titles)].filter((t) => !shown.includes(t.replace(/\\s+/g, ' ')));
  })()`) as Promise<string[]>;

test("every figure's explanation in the meter can be read from the keyboard", async () => {
  const chat = emptyChat({
    meter: {
      ...emptyChat().meter,
      maskedObservations: 2,
      maskedStored: 1,
      costUsd: 0.2048,
      estimated: true,
      totals: {
        tokensSent: 120_000,
        cachedTokens: 40_000,
        outputTokens: 3_000,
        reportedInputTokens: 100_000,
        reportedCachedTokens: 40_000,
        reportedCalls: 2,
      },
      budget: { state: 'warning', usedPercent: 85, limit: 600_000 },
    },
  });
  const page = await panel.open(chat, { width: 300, height: 800 });
  await page.locator('cd-app [data-testid="meter-toggle"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('cd-app [data-testid="meter-details"]').waitFor();
  // The figures' explanations are one Tab away from the toggle.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(FOCUSED), 'summary');
  await page.keyboard.press('Enter');
  assert.deepEqual(await unsaid(page), []);
  await page.close();
});

test("History's marks say what they mean to a screen reader and, focused, to the eye", async () => {
  const pastSessions = [
    { id: 'a', title: 'Own', createdAt: 3, turns: 1 },
    { id: 'b', title: 'Continued', createdAt: 2, turns: 4, continued: true },
    { id: 'c', title: 'Shipped', createdAt: 1, turns: 2, foreign: true },
  ];
  const page = await panel.open(emptyChat({ pastSessions }));
  await page.evaluate(() =>
    window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
  );
  await page.locator('cd-app [data-testid="history-foreign"]').waitFor();
  const mark = async (title: string): Promise<string> =>
    (await page
      .locator('cd-app [data-testid="history-item"]', { hasText: title })
      .locator('.foreign')
      .getAttribute('title')) ?? '';
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[];
  };
  const described = nodes
    .filter((n) => n.role?.value === 'option')
    .map((n) => [n.name?.value.split(' ')[0], n.description?.value ?? '']);
  assert.deepEqual(described, [
    ['Own', ''],
    ['Continued', await mark('Continued')],
    ['Shipped', await mark('Shipped')],
  ]);
  // Arrows move the focus to a marked row: its explanation shows under it, and only there.
  const visible = (): Promise<string[]> =>
    page.evaluate(`[...document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot
      .querySelectorAll('.session')].filter((r) => [...r.children].some((c) => c.checkVisibility() &&
      c.textContent.trim() === r.querySelector('.foreign')?.title)).map((r) => r.querySelector('.title').textContent)`) as Promise<
      string[]
    >;
  await page.locator('cd-app [data-testid="history-item"]').first().focus();
  assert.deepEqual(await visible(), []);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await visible(), ['Continued']);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await visible(), ['Shipped']);
  await page.close();
});
