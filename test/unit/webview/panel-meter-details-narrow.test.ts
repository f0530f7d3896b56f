// The meter's details (opened from the meter line) at 110 px (220 at 200 % zoom) and 150 px (300 at
// 200 %): each figure's column was at least 150 px wide, so the figures ran past the panel's edge into a
// box that scrolled sideways, cut at the right ("Window 41.2k of 128k tok").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const chat = emptyChat({
  meter: {
    ...emptyChat().meter,
    maskedObservations: 2,
    costUsd: 0.2048,
    budget: { state: 'warning', usedPercent: 85, limit: 600_000 },
  },
});

test("the meter's details read whole inside the panel at 110, 150 and 300 pixels", async () => {
  for (const width of [110, 150, 300]) {
    const page = await panel.open(chat, { width, height: 600 });
    await page.locator('cd-app [data-testid="meter-toggle"]').click();
    await page.locator('cd-app [data-testid="meter-details"]').waitFor();
    const past = await page.evaluate(`(() => {
      const m = document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot;
      const details = m.querySelector('.details');
      const edge = Math.min(details.getBoundingClientRect().right, innerWidth);
      const cut = [...m.querySelectorAll('.stat')]
        .filter((s) => s.getBoundingClientRect().right > edge + 0.5)
        .map((s) => s.textContent.replace(/\\s+/g, ' ').trim());
      return details.scrollWidth > details.clientWidth + 1 ? ['(scrolls sideways)', ...cut] : cut;
    })()`);
    assert.deepEqual(past, [], `${width} px: figures past the edge`);
    await page.close();
  }
});
