// Dev harness for the Agent panel's webview: serves dist/webview.js on loopback with a fake
// acquireVsCodeApi, posts a rich chat (500 turns, tool calls, masked ones, meter, series, approval),
// drives it (streaming, plot points, open links, Enter to send, snapshot request), prints render
// timings and writes screenshots to test-results/. Run: npm run build && npx tsx scripts/panel-preview.ts [turns]
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './lib/browser';
import type { ChatSnapshot } from '../src/protocol/chat';
import { SETUP_FORM, richChat } from './lib/panel-fixture';
import { BACKGROUND, THEMES, type ThemeName } from './lib/panel-themes';

const TURNS = Number(process.argv[2] ?? 500);
const ROOT = process.cwd();
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.html': 'text/html',
};

function page(theme: ThemeName): string {
  const vars = THEMES[theme].replace(/\n/g, '');
  return `<!DOCTYPE html><html lang="en" style="${vars}"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/dist/codicons/codicon.css" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="/media/panel.css"><style>body{background:${BACKGROUND[theme]}}</style>
<script>
  window.__posted = []; window.__state = undefined;
  window.__results = { send: { accepted: true }, openStored: { opened: true }, answerApproval: { ok: true },
    refreshSessions: { count: 1 }, getSetup: ${JSON.stringify(SETUP_FORM)} };
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      window.__posted.push(m);
      if (m.type === 'request') setTimeout(() => window.postMessage({ type: 'response', id: m.id, ok: true, result: window.__results[m.method] ?? { ok: true } }, '*'));
    },
    getState: () => window.__state, setState: (s) => { window.__state = s; },
  });
  // Posts a host message; resolves with the ms until the components rendered it and layout ran.
  window.__post = async (m) => {
    const app = document.querySelector('cd-app');
    const t0 = performance.now();
    window.postMessage(m, '*');
    await new Promise((r) => setTimeout(r, 0));
    // Chat patches are drawn at the next frame (src/webview/app.ts).
    await new Promise((r) => requestAnimationFrame(r));
    await app.updateComplete;
    for (const el of app.shadowRoot.querySelectorAll('cd-conversation, cd-meter, cd-composer')) await el.updateComplete;
    void document.body.offsetHeight;
    const ms = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return ms;
  };
</script></head><body><cd-app></cd-app><script type="module" src="/dist/webview.js"></script></body></html>`;
}

function serve(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    const theme = /[?&]theme=(dark|light|hc)/.exec(req.url ?? '')?.[1] as ThemeName | undefined;
    if (path === '/' || path === '/index.html')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(theme ?? 'dark'));
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (!/^\/(dist|media)\//.test(path)) return void res.writeHead(404).end();
    readFile(join(ROOT, path)).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => server.close() });
    }),
  );
}

/** Posts a host message (see window.__post in the page) and returns the render time in ms. */
function post(page: Page, message: unknown): Promise<number> {
  return page.evaluate(`window.__post(${JSON.stringify(message)})`) as Promise<number>;
}

interface Posted {
  type: string;
  id?: number;
  method?: string;
  params?: { path?: string; text?: string; action?: string };
  result?: unknown;
}

/** Everything the panel posted to the fake host so far. */
function posted(page: Page): Promise<Posted[]> {
  return page.evaluate('window.__posted') as Promise<Posted[]>;
}

/** Loads the panel, waits for its `ready`, and returns the render time of an `init` with the chat. */
async function openWith(page: Page, url: string, chat: ChatSnapshot): Promise<number> {
  await page.goto(url);
  await page.waitForFunction("window.__posted.some((m) => m.type === 'ready')");
  const settings = { strategy: 'cache-aware', maskingWindow: 10, tokenizer: 'o200k', cachedInputPrice: 0.1 };
  return post(page, { type: 'init', payload: { protocolVersion: 1, extensionVersion: '0.1.0', settings, chat } });
}

/** Runs a query inside the conversation's shadow root. */
const inConv = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot`;
const scrollerAtBottom = `(() => { const s = ${inConv}.querySelector('.scroller'); return s.scrollTop + s.clientHeight >= s.scrollHeight - 30; })()`;

/**
 * True when a click at the centre of the element would reach it (nothing painted over it): the innermost
 * element at that point, through shadow roots, is the element or inside it. Plain page script (a string),
 * so the bundler's helpers never reach the page.
 */
async function reachable(p: Page, testid: string): Promise<boolean> {
  const box = await p.locator(`cd-app [data-testid="${testid}"]`).first().boundingBox();
  if (!box) return false;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  return p.evaluate(`(() => {
    let root = document, hit = null;
    for (;;) {
      const next = root.elementFromPoint(${x}, ${y});
      if (!next || next === hit) break;
      hit = next;
      if (!hit.shadowRoot) break;
      root = hit.shadowRoot;
    }
    for (let e = hit; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null)
      if (e.dataset && e.dataset.testid === ${JSON.stringify(testid)}) return true;
    return false;
  })()`) as Promise<boolean>;
}

async function main(): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  const server = await serve();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // Baseline in the same run: the same panel with a 5-turn chat.
    const small = await browser.newPage({ viewport: { width: 420, height: 900 } });
    await openWith(small, server.url, richChat(5)); // warm-up: the first load pays for JIT and fonts
    const baselineMs = await openWith(small, server.url, richChat(5));
    await small.close();
    const chat = richChat(TURNS);
    const initMs = await openWith(page, server.url, chat);
    await page.waitForTimeout(300);
    const rows = await page.evaluate(`${inConv}.querySelectorAll('.row').length`);
    console.log(
      `init with ${chat.items.length} items: ${initMs.toFixed(1)} ms to render (${(initMs / baselineMs).toFixed(2)}x the ` +
        `${baselineMs.toFixed(1)} ms of a 5-turn chat), ${String(rows)} rows in the DOM`,
    );
    assert.ok(Number(rows) < 80, 'the conversation is windowed');
    assert.equal(await page.evaluate(scrollerAtBottom), true, 'starts at the newest output');
    const focused = await page.evaluate(
      `document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot.activeElement?.dataset.testid`,
    );
    assert.equal(focused, 'approval', 'the approval took focus (the prompt, not its Approve button)');

    // Streaming: a new assistant item growing chunk by chunk; the view follows it.
    const n = TURNS + 1;
    const patch = (params: unknown[]): Promise<number> =>
      post(page, { type: 'notification', method: 'chatPatch', params });
    await patch([
      { op: 'upsertItem', item: { kind: 'assistant', id: `a${n}`, turn: n, text: '', streaming: true, tools: [] } },
    ]);
    const times: number[] = [];
    for (let i = 0; i < 100; i++)
      times.push(
        await patch([{ op: 'appendText', id: `a${n}`, text: i === 10 ? '\n\n```ts\nconst x = 1;\n' : `word${i} ` }]),
      );
    times.sort((a, b) => a - b);
    console.log(`streaming patch to paint: median ${times[50]!.toFixed(1)} ms, p95 ${times[95]!.toFixed(1)} ms`);
    assert.equal(await page.evaluate(scrollerAtBottom), true, 'follows streaming output');

    // The meter opens into the details and the plot; a new point updates the chart in place.
    await page.locator('cd-app [data-testid="meter-toggle"]').click();
    const plot = `document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot.querySelector('cd-plot').shadowRoot.querySelector('canvas')`;
    await page.waitForFunction(`${plot} !== null`);
    await page.evaluate(`window.__canvas = ${plot}`);
    const pointMs = await patch([{ op: 'point', point: { call: n, sent: 20_000, raw: 900_000, cached: 10_000 } }]);
    assert.equal(await page.evaluate(`window.__canvas === ${plot}`), true, 'the chart is updated in place');
    console.log(`plot point to paint: ${pointMs.toFixed(1)} ms`);
    assert.equal((await page.evaluate('window.__state.meterOpen')) as boolean, true, 'the toggle is kept');
    await page.screenshot({ path: 'test-results/panel-preview-meter.png' });
    await page.locator('cd-app [data-testid="meter-toggle"]').click();

    // Scrolled up: following stops, Jump to latest appears; a masked card's open link asks for the file.
    await page.evaluate(`${inConv}.querySelector('.scroller').scrollTop = 0`);
    await page.waitForTimeout(300);
    await page.locator('cd-app [data-testid="jump-to-latest"]').waitFor();
    await page.locator('cd-app cd-tool-card[masked] [data-testid="open-masked"]').first().click();
    await page.waitForTimeout(100);
    const opened = (await posted(page)).filter((m) => m.method === 'openStored').map((m) => m.params?.path);
    assert.deepEqual(opened, ['.context-desk/outputs/c3.txt']);
    await page.screenshot({ path: 'test-results/panel-preview-top.png' });
    await page.locator('cd-app [data-testid="jump-to-latest"]').click();
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(scrollerAtBottom), true, 'Jump to latest goes back to the newest output');

    // Hostile Markdown cannot cover the panel's controls: positioned elements stay inside the scroller.
    const evil =
      '<div style="position:fixed;inset:0;z-index:2147483647;background:red">covered</div>' +
      '<a href="#" style="position:absolute;left:0;top:0;width:4000px;height:4000px;z-index:2147483647;background:blue">x</a>';
    await patch([
      {
        op: 'upsertItem',
        item: { kind: 'assistant', id: 'evil', turn: n + 1, text: evil, streaming: false, tools: [] },
      },
    ]);
    await page.waitForTimeout(200);
    for (const id of ['approve', 'composer', 'meter-toggle'])
      assert.equal(await reachable(page, id), true, `${id} is not covered by model output`);
    await page.screenshot({ path: 'test-results/panel-preview-hostile.png' });

    // The snapshot request counts items and the masked cards actually rendered.
    await post(page, { type: 'request', id: 9001, method: 'snapshot', params: {} });
    const snap = (await posted(page)).find((m) => m.id === 9001)?.result as { items: number; maskedShown: number };
    assert.equal(snap.items, chat.items.length + 2);

    // A prompt that arrives while the user types leaves the focus in the composer (a key meant for the
    // composer must not answer it).
    await page.locator('cd-app [data-testid="composer"]').focus();
    await patch([{ op: 'approval', approval: { id: 'ap2', kind: 'command', title: 'Run ls?', detail: 'ls' } }]);
    await page.locator('cd-app [data-testid="approval"]', { hasText: 'Run ls?' }).waitFor();
    const focusChain: unknown[] = await page.evaluate(
      `(() => { const ids = []; let a = document.activeElement; while (a) { ids.push(a.dataset?.testid); a = a.shadowRoot?.activeElement; } return ids; })()`,
    );
    assert.ok(focusChain.includes('composer'), 'a new approval does not take the focus from the composer');

    // Composer: a refused message stays, with the reason; an accepted one clears the box.
    await patch([
      { op: 'status', status: 'idle' },
      { op: 'approval', approval: undefined },
    ]);
    await page.evaluate(`window.__results.send = { accepted: false, reason: 'No model is set up yet.', setup: true }`);
    const box = page.locator('cd-app [data-testid="composer"]');
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second');
    // The draft is kept by the host (it may hold a key): the last saveDraft request carries it.
    const lastDraft = `window.__posted.filter((m) => m.method === 'saveDraft').at(-1)?.params?.text`;
    assert.equal(await page.evaluate(lastDraft), 'first line\nsecond');
    await box.press('Enter');
    await page.locator('cd-app [data-testid="send-refused"]').waitFor();
    assert.equal(await box.inputValue(), 'first line\nsecond', 'a refused message stays in the composer');
    await page.evaluate(`window.__results.send = { accepted: true }`);
    await box.press('Enter');
    await page.waitForFunction(`${lastDraft} === ''`);
    const sent = (await posted(page)).filter((m) => m.method === 'send').map((m) => m.params?.text);
    assert.deepEqual(sent, ['first line\nsecond', 'first line\nsecond']);
    await shots(browser, server.url, chat);
    assert.deepEqual(errors, [], 'no page errors');
    console.log('all checks passed; screenshots in test-results/panel-preview*.png');
  } finally {
    await browser.close();
    server.close();
  }
}

/** Every theme at a wide and a short, narrow size: the chat, the empty state, the setup form, History. */
async function shots(browser: Browser, url: string, chat: ChatSnapshot): Promise<void> {
  for (const theme of ['dark', 'light', 'hc'] as const) {
    const p = await browser.newPage({ viewport: { width: 300, height: 400 } });
    await openWith(p, `${url}?theme=${theme}`, { ...chat, status: 'idle', approval: undefined });
    await p.waitForTimeout(300);
    const composer = await p.locator('cd-app [data-testid="composer"]').boundingBox();
    const send = await p.locator('cd-app [data-testid="send"]').boundingBox();
    assert.ok(composer && send && send.y + send.height <= 400 && send.x + send.width <= 300, 'Send is in view');
    assert.ok(composer.y > 150, `the conversation keeps most of the height (composer at ${composer.y})`);
    await p.screenshot({ path: `test-results/panel-preview-300x400-${theme}.png` });
    const empty = { ...chat, items: [], status: 'idle' as const, approval: undefined, model: undefined, models: [] };
    await post(p, {
      type: 'notification',
      method: 'chatSnapshot',
      params: {
        ...empty,
        setup: {
          provider: 'openai-compatible',
          ready: false,
          hint: 'No model is set up yet. Choose one, or try the demo model: it needs no endpoint.',
        },
      },
    });
    await p.screenshot({ path: `test-results/panel-preview-empty-${theme}.png` });
    await p.locator('cd-app [data-testid="open-setup"]').click();
    await p.locator('cd-app [data-testid="setup-provider"]').waitFor();
    await p.screenshot({ path: `test-results/panel-preview-setup-${theme}.png` });
    await post(p, { type: 'notification', method: 'showView', params: { view: 'history' } });
    await p.screenshot({ path: `test-results/panel-preview-history-${theme}.png` });
    await p.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
