// The setup's and the welcome's buttons at 110 px (220 at 200 % zoom): "Test connection" with its icon
// ran 17 px past the panel's edge, its last letters out of sight. A label wraps inside its button.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import { SETUP_FORM } from '../../../scripts/lib/panel-fixture';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

/** The theme buttons (components/buttons.ts) in `component` that reach past the panel or are cut. */
const past = (page: Page, component: string): Promise<string[]> =>
  page.evaluate(`(() => {
    const root = document.querySelector('cd-app').shadowRoot.querySelector(${JSON.stringify(component)}).shadowRoot;
    return [...root.querySelectorAll('button.primary, button.secondary')]
      .filter((b) => b.getBoundingClientRect().right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1)
      .map((b) => b.textContent.replace(/\\s+/g, ' ').trim());
  })()`) as Promise<string[]>;

test("the setup's and the welcome's buttons keep their labels inside a 110 and a 150 pixel panel", async () => {
  for (const width of [110, 150]) {
    const welcome = await panel.open(emptyChat({ setup: { provider: 'openai-compatible', ready: false } }), {
      width,
      height: 500,
    });
    await welcome.locator('cd-app [data-testid="open-setup"]').waitFor();
    assert.deepEqual(await past(welcome, 'cd-welcome'), [], `${width} px: welcome`);
    await welcome.evaluate((r) => Object.assign(window, { __results: r }), { getSetup: SETUP_FORM });
    await welcome.locator('cd-app [data-testid="open-setup"]').click();
    await welcome.locator('cd-app [data-testid="setup-test"]').waitFor();
    assert.deepEqual(await past(welcome, 'cd-setup'), [], `${width} px: setup`);
    await welcome.close();
  }
});
