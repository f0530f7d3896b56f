// The Agent panel with a long session, in headless Chromium: time to render a 500-call session (tool
// cards, masked markers, the plot) when the panel opens, the longest frame while 20 more calls
// stream in, and the webview's memory (renderer RSS from /proc, JS heap after a GC), each against the
// same panel with an empty chat in the same run. The session reaches the panel only as protocol
// messages (init, chatPatch). Goals: no frame over 50 ms, webview memory under 150 MB.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/lib/browser';
import { PROTOCOL_VERSION, type HostToWebview } from '../../src/protocol/messages';
import { callPatches, emptyChat, sessionSnapshot } from './panel/session';
import { panelPage } from './panel/page';
import type { ChatSnapshot } from '../../src/protocol/chat';

const CALLS = Number(process.env.CALLS ?? 500);
const STREAMED = 20;
/** A fast model: a patch every 16 ms (text chunks, tool cards, points). */
const EVERY_MS = 16;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

function serve(): Promise<{ url: string; close(): void }> {
  const page = panelPage();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (!/^\/(dist|media)\//.test(path)) return void res.writeHead(404).end();
    readFile(join(process.cwd(), path)).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`, close: () => server.close() });
    }),
  );
}

function init(chat: ChatSnapshot): HostToWebview {
  const settings = { strategy: 'masking', maskingWindow: 10, tokenizer: 'o200k', cachedInputPrice: 0.1 };
  return { type: 'init', payload: { protocolVersion: PROTOCOL_VERSION, extensionVersion: '0.1.0', settings, chat } };
}

/**
 * The page's renderer (the biggest below `ancestor`; spare renderers are near empty): RSS, and its
 * private memory (what Chrome's task manager calls the memory footprint: RSS less the Chromium code
 * and fonts every renderer shares).
 */
function rendererMemory(ancestor: number): { rssMb: number; privateMb: number } {
  let best = { rssMb: 0, privateMb: 0 };
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      if (!isDescendant(Number(e), ancestor)) continue;
      const rollup = readFileSync(`/proc/${e}/smaps_rollup`, 'utf8');
      const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
      const m = { rssMb: kb('Rss') / 1024, privateMb: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
      if (m.rssMb > best.rssMb) best = m;
    } catch {
      /* gone */
    }
  }
  return best;
}

function isDescendant(pid: number, ancestor: number): boolean {
  for (let p = pid, i = 0; p > 1 && i < 20; i++) {
    p = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1]);
    if (p === ancestor) return true;
  }
  return false;
}

interface Run {
  renderMs: number;
  frames: number[];
  rssMb: number;
  privateMb: number;
  heapMb: number;
}

async function memory(page: Page, browserPid: number): Promise<{ rssMb: number; privateMb: number; heapMb: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return { ...rendererMemory(browserPid), heapMb: heap / 1024 / 1024 };
}

async function once(browser: Browser, browserPid: number, url: string, chat: ChatSnapshot, from: number): Promise<Run> {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  page.on('pageerror', (e) => console.error(`[panel] ${e.message}`));
  page.on('crash', () => console.error('[panel] the renderer crashed'));
  try {
    await page.goto(url);
    await page.waitForFunction("window.__posted.some((m) => m.type === 'ready')");
    const renderMs = (await page.evaluate(
      `window.__timeRender(${JSON.stringify(init(chat))}, ${chat.items.length})`,
    )) as number;
    const messages: HostToWebview[] = [];
    for (let n = from; n < from + STREAMED; n++)
      for (const step of callPatches(n)) messages.push({ type: 'notification', method: 'chatPatch', params: step });
    const frames = (await page.evaluate(`window.__stream(${JSON.stringify(messages)}, ${EVERY_MS})`)) as number[];
    return { renderMs, frames, ...(await memory(page, browserPid)) };
  } finally {
    await page.close();
  }
}

const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const fmt = (xs: number[], unit: string): string =>
  `${med(xs).toFixed(1)} ${unit} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const server = await serve();
  const browser = await launchBrowser();
  try {
    const browserPid = process.pid; // Chromium runs below this process: its renderers are our descendants
    const long = sessionSnapshot(CALLS);
    const runs: Record<'empty' | 'long', Run[]> = { empty: [], long: [] };
    for (let r = 0; r < ROUNDS; r++) {
      runs.empty.push(await once(browser, browserPid, server.url, emptyChat(), 1));
      runs.long.push(await once(browser, browserPid, server.url, long, CALLS + 1));
    }
    console.log(
      `Agent panel in headless Chromium, ${ROUNDS} rounds, median (min-max); streaming ${STREAMED} calls, a patch every ${EVERY_MS} ms`,
    );
    console.log(`                          | empty chat               | ${CALLS}-call session`);
    const row = (label: string, a: string, b: string): void =>
      console.log(`${label.padEnd(25)} | ${a.padEnd(24)} | ${b}`);
    const both = (label: string, pick: (x: Run) => number, unit: string): void =>
      row(label, fmt(runs.empty.map(pick), unit), fmt(runs.long.map(pick), unit));
    both('time to render (init)', (x) => x.renderMs, 'ms');
    both('longest frame streaming', (x) => Math.max(...x.frames), 'ms');
    both(
      '95th percentile frame',
      (x) => [...x.frames].sort((a, b) => a - b)[Math.floor(x.frames.length * 0.95)]!,
      'ms',
    );
    both('renderer private memory', (x) => x.privateMb, 'MB');
    both('renderer RSS', (x) => x.rssMb, 'MB');
    both('JS heap after GC', (x) => x.heapMb, 'MB');
    const frame = med(runs.long.map((x) => Math.max(...x.frames)));
    const own = med(runs.long.map((x) => x.privateMb));
    console.log(
      `longest frame with ${CALLS} calls: ${frame.toFixed(1)} ms (goal <= 50 ms: ${frame <= 50 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `webview memory (renderer private memory): ${own.toFixed(1)} MB (goal < 150 MB: ${own < 150 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
