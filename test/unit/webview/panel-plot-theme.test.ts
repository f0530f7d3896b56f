// The per-call plot follows the colour theme in a real headless Chromium: VS Code puts a theme's colours
// on <html> (its style); between two dark themes the body's class stays the same and the plot must still
// take the new colours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

/** The plot's chart (uPlot) and the colour of its "Sent" line. */
const PLOT = `document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot.querySelector('cd-plot')`;
const SENT = `(() => { const c = ${PLOT}?.chart; return c ? c.series[1].stroke(c, 1) : 'no chart'; })()`;

test('switching between two dark themes gives the plot the new theme’s colours', async () => {
  const series = [1, 2, 3].map((call) => ({ call, sent: 1000 * call, raw: 1500 * call, cached: 0 }));
  const page = await panel.open(emptyChat({ series }));
  await page.locator('cd-app [data-testid="meter-toggle"]').click();
  await page.waitForFunction(`${SENT} !== 'no chart'`, null, { timeout: 5000 });
  // What VS Code does on a theme change: new variables on <html>; the body keeps `vscode-dark`.
  const bodyClass = await page.evaluate(() => document.body.className);
  await page.evaluate(() => document.documentElement.style.setProperty('--vscode-charts-blue', '#ff0077'));
  await page.waitForFunction(`${SENT} === '#ff0077'`, null, { timeout: 3000 }).catch(() => undefined);
  assert.equal(await page.evaluate(SENT), '#ff0077');
  assert.equal(await page.evaluate(() => document.body.className), bodyClass);
  // A style change that leaves the colours as they are does not rebuild the chart.
  await page.evaluate(`window.__chart = ${PLOT}.chart`);
  // The observer's callback is a microtask queued by the change: one queued after it runs once it has.
  await page.evaluate(async () => {
    document.documentElement.style.setProperty('--vscode-font-size', '14px');
    await new Promise<void>((r) => queueMicrotask(r));
  });
  assert.equal(await page.evaluate(`window.__chart === ${PLOT}.chart`), true);
  await page.close();
});
