// `--plot FILE.svg`: context tokens per model call for each strategy, as a hand-built SVG (axes, grid,
// legend, a title naming the tokenizer). With several trajectories each point is the mean over the
// trajectories that reached that call; the subtitle says so.
import type { StrategyRun } from './run';
import { formatDecimal } from '../../core/numbers';

const W = 960;
const H = 540;
const M = { left: 80, right: 190, top: 70, bottom: 60 };
const COLORS = ['#6b7280', '#2563eb', '#d97706', '#7c3aed', '#059669', '#dc2626', '#0891b2', '#be185d'];

function esc(s: string): string {
  // XML allows no control characters; file names can hold them.

  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Round step for about `target` ticks: 1, 2 or 5 times a power of ten. */
export function niceStep(max: number, target = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Mean context tokens at each call index over the trajectories that reached it. */
export function meanSeries(run: StrategyRun): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  for (const r of run.replays) {
    r.calls.forEach((c, i) => {
      sums[i] = (sums[i] ?? 0) + c.contextTokens;
      counts[i] = (counts[i] ?? 0) + 1;
    });
  }
  return sums.map((s, i) => s / counts[i]!);
}

function label(n: number): string {
  return n >= 1000 ? `${formatDecimal(n / 1000, { maxFraction: 1 })}k` : String(Math.round(n));
}

export function renderPlot(runs: readonly StrategyRun[], tokenizer: string, exact: boolean): string {
  const series = runs.map((r) => ({ name: r.strategy, points: meanSeries(r) }));
  // Folds, not Math.max(...points): a run of over about 120,000 calls would overflow the stack.
  const maxX = series.reduce((m, s) => Math.max(m, s.points.length - 1), 1);
  const maxY = series.reduce((m, s) => s.points.reduce((k, v) => Math.max(k, v), m), 1);
  const yStep = niceStep(maxY);
  const yTop = Math.ceil(maxY / yStep) * yStep;
  const xStep = Math.max(1, niceStep(maxX, 8));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (i: number) => M.left + (i / maxX) * pw;
  const y = (v: number) => M.top + ph - (v / yTop) * ph;
  const n = runs[0]?.replays.length ?? 0;
  // Media whose size replay does not know: every point is a lower bound, said in the title as in the table.
  const media = runs[0]?.totals.uncountedMedia ?? 0;
  const bound = media > 0 ? `, lower bounds: ${media} media part${media === 1 ? '' : 's'} not counted` : '';
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="28" font-size="17" font-weight="600">${esc(`Context tokens per model call (${tokenizer} tokenizer${exact ? '' : ', chars/4 ESTIMATE'}${bound})`)}</text>`,
    `<text x="${M.left}" y="48" fill="#555">${esc(n === 1 ? `trajectory ${runs[0]!.replays[0]!.trajectoryId}` : `mean over the ${n} trajectories that reached each call`)}</text>`,
  ];
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + pw}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`,
    );
    out.push(`<text x="${M.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`);
  }
  for (let i = 0; i <= maxX; i += xStep) {
    out.push(
      `<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${M.top + ph}" y2="${M.top + ph + 5}" stroke="#333"/>`,
    );
    out.push(`<text x="${x(i).toFixed(1)}" y="${M.top + ph + 18}" text-anchor="middle">${i + 1}</text>`);
  }
  out.push(
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + ph}" stroke="#333"/>`,
    `<line x1="${M.left}" x2="${M.left + pw}" y1="${M.top + ph}" y2="${M.top + ph}" stroke="#333"/>`,
    `<text x="${M.left + pw / 2}" y="${H - 15}" text-anchor="middle">model call</text>`,
    `<text transform="translate(20 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">context tokens</text>`,
  );
  series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length]!;
    // Identical series would hide each other: dash the later one and say which it matches.
    const twin = series
      .slice(0, k)
      .find((o) => o.points.length === s.points.length && o.points.every((v, i) => v === s.points[i]));
    const dash = twin ? ` stroke-dasharray="${4 + 3 * (k % 3)} 4"` : '';
    const pts = s.points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    out.push(
      `<polyline class="series" data-strategy="${esc(s.name)}" fill="none" stroke="${color}" stroke-width="1.8"${dash} points="${pts}"/>`,
    );
    const ly = M.top + 10 + k * 20;
    out.push(
      `<line x1="${W - M.right + 20}" x2="${W - M.right + 44}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"${dash}/>`,
    );
    out.push(`<text x="${W - M.right + 50}" y="${ly + 4}">${esc(twin ? `${s.name} (= ${twin.name})` : s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
