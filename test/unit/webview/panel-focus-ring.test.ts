// Keyboard focus is seen on the dock's controls, in the dark theme and under forced colours (Windows high
// contrast, which draws every border in one colour): the pixels of a control differ when it has the focus.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(async () => {
  await panel?.close();
});

/** A screenshot of the control with a 2 px margin (where a focus ring is drawn). */
async function shot(page: Page, testid: string): Promise<Buffer> {
  // The pickers' selects are transparent over their label: the ring is drawn around their parent.
  const box = await page
    .locator(`cd-app [data-testid="${testid}"]`)
    .evaluate((e) => (e.tagName === 'SELECT' ? e.parentElement! : e).getBoundingClientRect().toJSON() as DOMRect);
  return page.screenshot({ clip: { x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 4 } });
}

for (const forced of [false, true])
  test(`the meter line and the pickers show the keyboard focus${forced ? ' under forced colours' : ''}`, async () => {
    const page = await panel.open(emptyChat({ models: ['gpt-4.1-mini', 'gpt-4.1'] }), {
      width: 300,
      height: 400,
      theme: forced ? 'hc' : 'dark',
    });
    if (forced) await page.emulateMedia({ forcedColors: 'active' });
    // Tab order at the bottom: meter line, message box, strategy picker, model picker.
    await page.locator('cd-app [data-testid="composer"]').focus();
    const before = {
      'meter-toggle': await shot(page, 'meter-toggle'),
      'strategy-picker': await shot(page, 'strategy-picker'),
    };
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(FOCUSED), 'meter-toggle');
    assert.notDeepEqual(await shot(page, 'meter-toggle'), before['meter-toggle'], 'the meter line shows its focus');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(FOCUSED), 'strategy-picker');
    assert.notDeepEqual(await shot(page, 'strategy-picker'), before['strategy-picker'], 'the picker shows its focus');
    await page.close();
  });
