// End to end in a real browser: the user opens the Context Desk container, sees the panel inside its
// webview, and runs a Context Desk command from the palette.
import assert from 'node:assert/strict';
import { findFrame, type E2eContext } from './context';

export const name = 'Context Desk panel in the sidebar';

export async function run({ page, screenshot }: E2eContext): Promise<void> {
  const item = page.locator('.activitybar [aria-label^="Context Desk"]').first();
  await item.waitFor({ state: 'visible', timeout: 60_000 });
  await item.click();

  const frame = await findFrame(page, 'cd-app [data-testid="connection"]', 60_000);
  const connection = await frame.locator('[data-testid="connection"]').textContent();
  assert.match(connection ?? '', /Connected to the extension host/);
  assert.equal(await frame.locator('[data-testid="strategy"]').textContent(), 'cache-aware');

  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Context Desk: Ping Agent Panel');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Ping Agent Panel' })
    .first()
    .waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');

  await frame.locator('[data-testid="ping"]').waitFor({ timeout: 15_000 });
  const toast = page.locator('.notifications-toasts', { hasText: 'the Agent panel answered' });
  await toast.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(600); // let the toast finish sliding in before the picture
  await screenshot('panel-in-sidebar');
}
