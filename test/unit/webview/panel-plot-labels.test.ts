// The per-call plot's axis labels and legend at 110, 150 and 300 px in the three themes, measured in a
// real headless Chromium: every label the chart draws (recorded from the canvas's fillText) lies inside
// the canvas and overlaps no other; the x axis names the latest call; the legend's rows stay inside the
// view, do not overlap and keep each series' name on one line.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import type { ThemeName } from '../../../scripts/lib/panel-themes';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const PLOT = `document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot.querySelector('cd-plot')`;

const calls = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ call: i + 1, sent: 2_000 + 900 * i, raw: 2_000 + 14_000 * i, cached: 0 }));

interface Box {
  text: string;
  l: number;
  r: number;
  t: number;
  b: number;
}

/** Records every text the chart's canvas draws, as a box in CSS pixels of the canvas. */
const RECORD = `(() => {
  const proto = CanvasRenderingContext2D.prototype;
  const fill = proto.fillText;
  window.__labels = [];
  proto.fillText = function (text, x, y, ...rest) {
    const m = this.measureText(text);
    const t = this.getTransform();
    const a = this.textAlign;
    const l = a === 'center' ? x - m.width / 2 : a === 'right' || a === 'end' ? x - m.width : x;
    const d = devicePixelRatio;
    window.__labels.push({
      text: String(text),
      l: (t.a * l + t.e) / d,
      r: (t.a * (l + m.width) + t.e) / d,
      t: (t.d * (y - m.actualBoundingBoxAscent) + t.f) / d,
      b: (t.d * (y + m.actualBoundingBoxDescent) + t.f) / d,
    });
    return fill.call(this, text, x, y, ...rest);
  };
})()`;

interface Drawn {
  labels: Box[];
  width: number;
  height: number;
  /** The view's width. */
  view: number;
  /** The plotting area's left and bottom edges. */
  left: number;
  bottom: number;
}

async function drawn(page: Page): Promise<Drawn> {
  // One complete frame: the log emptied, the chart laid out and drawn again; read once it has drawn.
  return (await page.evaluate(`new Promise((resolve) => {
    const p = ${PLOT};
    const u = p.chart;
    const hooks = (u.hooks.draw ??= []);
    hooks.push(function once() {
      hooks.splice(hooks.indexOf(once), 1);
      const c = u.ctx.canvas;
      const d = devicePixelRatio;
      resolve({ labels: window.__labels, width: c.width / d, height: c.height / d,
        view: p.getBoundingClientRect().width, left: u.bbox.left / d, bottom: (u.bbox.top + u.bbox.height) / d });
    });
    window.__labels = [];
    u.redraw(false, true);
  })`)) as Drawn;
}

const overlap = (a: Box, b: Box) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

function assertApart(boxes: Box[]): void {
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) assert.ok(!overlap(a, b), `"${a.text}" overlaps "${b.text}"`);
}

async function openPlot(width: number, theme: ThemeName, n: number): Promise<Page> {
  const page = await panel.open(emptyChat({ series: calls(n) }), { width, height: 800, theme });
  await page.evaluate(RECORD);
  await page.locator('cd-app [data-testid="meter-toggle"]').click();
  await page.waitForFunction(`!!${PLOT}?.chart && ${PLOT}.chart.bbox.width > 0`);
  return page;
}

for (const width of [110, 150, 300])
  for (const theme of ['dark', 'light', 'hc'] as const)
    for (const n of [12, 150])
      test(`${n} calls at ${width} px (${theme}): axis labels inside the chart, apart, the latest call named`, async () => {
        const page = await openPlot(width, theme, n);
        const { labels, width: w, height: h, view, left, bottom } = await drawn(page);
        assert.ok(w <= view + 0.5, `the chart (${w} px) is wider than the view (${view} px)`);
        assert.ok(labels.length > 0, 'no labels drawn');
        for (const a of labels)
          assert.ok(
            a.l >= -0.5 && a.r <= w + 0.5 && a.t >= -0.5 && a.b <= h + 0.5,
            `"${a.text}" is cut: ${JSON.stringify(a)}`,
          );
        assertApart(labels);
        const all = labels.map((a) => a.text).join(', ');
        const x = labels.filter((a) => a.t >= bottom);
        const y = labels.filter((a) => a.r <= left && a.b <= bottom + 8);
        assert.ok(
          x.some((a) => a.text === String(n)),
          `the latest call (${n}) is not named: ${all}`,
        );
        // A token axis with one label has no scale.
        assert.ok(y.length >= 2, `the token axis has ${y.length} labels: ${all}`);
        await page.close();
      });

for (const width of [110, 150, 300])
  test(`the legend at ${width} px: rows inside the view, apart, each name on one line`, async () => {
    const page = await openPlot(width, 'hc', 40);
    const rows = (await page.evaluate(`(() => {
      const p = ${PLOT};
      const view = p.getBoundingClientRect();
      return { view: [view.left, view.right], rows: [...p.shadowRoot.querySelectorAll('.u-legend .u-series')].map((tr) => {
        const r = tr.getBoundingClientRect();
        const label = tr.querySelector('.u-label');
        const range = document.createRange();
        range.selectNodeContents(label);
        const lines = new Set([...range.getClientRects()].map((x) => Math.round(x.top))).size;
        const cell = tr.querySelector('th');
        const pad = getComputedStyle(cell);
        const th = cell.getBoundingClientRect().height - parseFloat(pad.paddingTop) - parseFloat(pad.paddingBottom);
        const line = parseFloat(getComputedStyle(label).lineHeight) || label.getBoundingClientRect().height;
        return { text: label.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom, lines, th, line };
      }) };
    })()`)) as { view: [number, number]; rows: (Box & { lines: number; th: number; line: number })[] };
    assert.ok(rows.rows.length >= 2, 'no legend');
    for (const row of rows.rows) {
      assert.ok(row.l >= rows.view[0] - 0.5 && row.r <= rows.view[1] + 0.5, `"${row.text}" leaves the view`);
      assert.equal(row.lines, 1, `"${row.text}" is broken over ${row.lines} lines`);
      // The name and its colon (drawn after it) on one line: the name's cell holds one line.
      assert.ok(row.th < row.line * 1.5, `"${row.text}"'s name cell is ${row.th} px high (a line is ${row.line})`);
    }
    assertApart(rows.rows);
    await page.close();
  });
