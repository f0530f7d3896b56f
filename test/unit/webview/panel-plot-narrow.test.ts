// The per-call plot at 110 px (220 at 200 % zoom): the "tokens" axis, its title and uPlot's padding took
// almost all of the 90 px chart, leaving the lines a strip 11 px wide. A narrow chart drops the axis
// titles (the plot's name and legend say what it shows) and keeps the tick labels.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const PLOT = `document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot.querySelector('cd-plot')`;
const series = Array.from({ length: 20 }, (_, i) => ({
  call: i + 1,
  sent: 2_000 + 900 * i,
  raw: 2_000 + 4_000 * i,
  cached: 0,
}));

test('at 110 px the lines have at least half of the chart’s width', async () => {
  const page = await panel.open(emptyChat({ series }), { width: 110, height: 700 });
  await page.locator('cd-app [data-testid="meter-toggle"]').click();
  await page.waitForFunction(`!!${PLOT}?.chart`);
  const [plot, whole] = (await page.evaluate(
    `(() => { const c = ${PLOT}.chart; return [c.bbox.width / devicePixelRatio, c.width]; })()`,
  )) as [number, number];
  assert.ok(plot >= whole / 2, `the lines have ${plot} of ${whole} px`);
  await page.close();
});
