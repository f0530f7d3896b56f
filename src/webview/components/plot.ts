// <cd-plot>: tokens sent vs what raw history would have sent, per model call (uPlot). The chart is
// created once and fed with setData on every new point; it follows the view's width and is rebuilt
// only when the theme's colours change (canvas colours are resolved from the theme variables).
import { LitElement, css, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { CallPoint } from '../../protocol/chat';
import { formatTokens } from '../lib/format';

const HEIGHT = 130;
/** Below this width the axes have no titles: at 110 px they left the lines 11 of 90 px. */
const NARROW = 200;

/** The width of a tick label in CSS pixels, in the axes' font. */
function labelWidth(u: uPlot, text: string): number {
  u.ctx.font = `${10 * devicePixelRatio}px ${getComputedStyle(u.root).fontFamily}`;
  return u.ctx.measureText(text).width / devicePixelRatio;
}

/** A narrow chart's token axis: as wide as its widest tick label ("100k"), its tick and the gap. */
function tickLabelRoom(u: uPlot, values: string[] | null): number {
  if (!values) return 30;
  let widest = 0;
  for (const v of values) widest = Math.max(widest, labelWidth(u, v));
  return Math.ceil(widest) + 17;
}

/** The latest call drawn (the x axis always names it). */
const lastCall = (u: uPlot): number | undefined => u.data?.[0]?.at(-1);

/**
 * The call numbers under the chart: round ones (steps of 1, 2, 5, 10, …) as far apart as their labels need,
 * and the latest call, which says how many calls the chart shows. uPlot's own ticks wanted 50 px apiece and
 * left a 110 px sidebar's chart with none, a 150 px one with "25" of 40 calls.
 */
function callSplits(u: uPlot, _axis: number, min: number, max: number): number[] {
  const last = lastCall(u) ?? Math.floor(max);
  const room = u.bbox.width / devicePixelRatio;
  const perCall = room / (max - min);
  if (!Number.isFinite(perCall) || !(perCall > 0)) return [last];
  const need = labelWidth(u, String(Math.floor(max))) + 8;
  let step = 1;
  for (let k = 1; step * perCall < need && k < 60; k++)
    step = (k % 3 === 0 ? 1 : k % 3 === 1 ? 2 : 5) * 10 ** Math.floor(k / 3);
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) if ((last - v) * perCall >= need) out.push(v);
  out.push(last);
  return out;
}

/** Room right of the lines for the latest call's label, which is centred on the chart's right edge. */
const rightPad = (u: uPlot): number => Math.ceil(labelWidth(u, String(lastCall(u) ?? 0)) / 2) + 2;

export class CdPlot extends LitElement {
  static override properties = { series: { attribute: false } };
  declare series: CallPoint[];
  private chart: uPlot | undefined;
  private resize: ResizeObserver | undefined;
  private theme: MutationObserver | undefined;
  /** The colours of the chart drawn (see `colors`). */
  private drawnWith = '';
  /** The chart drawn was narrow (no axis titles). */
  private drawnNarrow = false;

  constructor() {
    super();
    this.series = [];
  }

  private get box(): HTMLElement | null {
    return this.renderRoot.querySelector('.chart');
  }

  private data(): uPlot.AlignedData {
    const s = this.series;
    return [s.map((p) => p.call), s.map((p) => p.sent), s.map((p) => p.raw)];
  }

  private color(name: string, fallback: string): string {
    return getComputedStyle(this).getPropertyValue(name).trim() || fallback;
  }

  /** The theme's colours and font the chart is drawn with. */
  private colors(): [fg: string, grid: string, font: string, sent: string, raw: string] {
    return [
      this.color('--vscode-descriptionForeground', '#888'),
      this.color('--vscode-widget-border', 'rgba(128,128,128,0.25)'),
      this.color('--vscode-font-family', 'sans-serif'),
      this.color('--vscode-charts-blue', '#3794ff'),
      this.color('--vscode-charts-orange', '#d18616'),
    ];
  }

  private create(): void {
    const box = this.box;
    if (!box) return;
    this.chart?.destroy();
    const colors = this.colors();
    this.drawnWith = colors.join('\n');
    const [fg, grid, font, sent, raw] = colors;
    const axis: uPlot.Axis = {
      stroke: fg,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      font: `10px ${font}`,
    };
    // Axis titles in the ticks' size: a narrow sidebar has little room for them, a very narrow one none.
    this.drawnNarrow = box.clientWidth < NARROW;
    const small = this.drawnNarrow
      ? { labelSize: 0, labelFont: axis.font, labelGap: 0 }
      : { labelSize: 14, labelFont: axis.font, labelGap: 0 };
    const title = (text: string): string | undefined => (this.drawnNarrow ? undefined : text);
    this.chart = new uPlot(
      {
        width: box.clientWidth > 0 ? box.clientWidth : 120,
        height: HEIGHT,
        cursor: { drag: { x: false, y: false } },
        // uPlot's own right padding (room for the last tick label's half) was a quarter of a 90 px chart.
        padding: (this.drawnNarrow ? [10, rightPad, 0, 0] : [null, rightPad, null, null]) as uPlot.Padding,
        scales: { x: { time: false } },
        axes: [
          {
            ...axis,
            label: title('model call'),
            ...small,
            // Tick, gap and one line of labels: uPlot's 50 px left a 300 px sidebar's lines 49 px of 130.
            size: 22,
            ticks: { ...axis.ticks, size: 4 },
            gap: 3,
            splits: callSplits,
            values: (_u, vals) => vals.map((v) => (Number.isInteger(v) ? String(v) : '')),
          },
          {
            ...axis,
            label: title('tokens'),
            ...small,
            size: this.drawnNarrow ? tickLabelRoom : 40,
            // Labels 10 px high: 18 px apart gives the token axis at least two even on a short chart.
            space: 18,
            values: (_u, vals) => vals.map((v) => formatTokens(v)),
          },
        ],
        series: [
          { label: 'Call' },
          {
            label: 'Sent',
            stroke: sent,
            width: 2,
            value: (_u, v) => (v === null || v === undefined ? '–' : formatTokens(v)),
          },
          {
            label: 'Raw history',
            stroke: raw,
            width: 1.5,
            dash: [4, 3],
            value: (_u, v) => (v === null || v === undefined ? '–' : formatTokens(v)),
          },
        ],
      },
      this.data(),
      box,
    );
  }

  override firstUpdated(): void {
    this.create();
    this.resize = new ResizeObserver(() => {
      const box = this.box;
      if (!box || !this.chart || box.clientWidth === 0) return;
      if (box.clientWidth < NARROW !== this.drawnNarrow) this.create();
      else if (Math.abs(box.clientWidth - this.chart.width) > 1)
        this.chart.setSize({ width: box.clientWidth, height: HEIGHT });
    });
    const box = this.box;
    if (box) this.resize.observe(box);
    // VS Code sets the theme's variables on <html> (its style) and names the theme on the body: between two
    // dark themes the body's class stays the same and only these change. Rebuilt when the colours differ.
    this.theme = new MutationObserver(() => {
      if (this.colors().join('\n') !== this.drawnWith) this.create();
    });
    this.theme.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    this.theme.observe(document.body, {
      attributes: true,
      attributeFilter: ['class', 'data-vscode-theme-id', 'data-vscode-theme-name'],
    });
  }

  override updated(changed: PropertyValues<this>): void {
    if (changed.has('series') && this.chart) this.chart.setData(this.data());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize?.disconnect();
    this.theme?.disconnect();
    this.chart?.destroy();
    this.chart = undefined;
  }

  override render(): unknown {
    const empty = this.series.length === 0;
    return html`<div class="plot ${empty ? 'empty' : ''}" data-testid="plot" role="img" aria-label=${this.summary()}>
      <div class="chart"></div>
      ${this.series.length === 0 ? html`<p class="empty">The per-call plot fills in as the agent calls the model.</p>` : nothing}
    </div>`;
  }

  /** A text equivalent of the chart for screen readers. */
  private summary(): string {
    const last = this.series.at(-1);
    if (!last) return 'Per-call tokens: no calls yet';
    return `Per-call tokens over ${this.series.length} calls; last call sent ${formatTokens(last.sent)} of ${formatTokens(last.raw)} raw history tokens`;
  }

  static override styles = [
    unsafeCSS(uplotCss),
    css`
      :host {
        display: block;
      }
      .chart {
        width: 100%;
        overflow: hidden;
      }
      /* No calls yet: keep the chart (it is fed in place later) but give the space to the chat. */
      .empty .chart {
        display: none;
      }
      .uplot {
        font-family: var(--vscode-font-family);
        color: var(--vscode-foreground);
      }
      /* A compact legend below the chart: the series side by side while they fit, each name (and its
         colon) kept on one line; a value that does not fit beside its name goes under it. At 110 px
         uPlot's min-content legend broke "Raw history:" over three lines. */
      .u-legend {
        font-size: 11px;
        text-align: left;
        margin: 2px 0 0;
      }
      .u-legend.u-inline tbody {
        display: flex;
        flex-wrap: wrap;
        column-gap: 10px;
      }
      .u-legend.u-inline tr {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        column-gap: 4px;
        margin-right: 0;
        max-width: 100%;
      }
      .u-legend .u-series > * {
        padding: 0;
        white-space: nowrap;
      }
      .u-legend th {
        font-weight: normal;
      }
      .u-legend .u-marker {
        width: 0.8em;
        height: 0.8em;
      }
      .empty {
        margin: 2px 0;
        color: var(--vscode-descriptionForeground);
        font-size: 0.9em;
      }
    `,
  ];
}

customElements.define('cd-plot', CdPlot);
