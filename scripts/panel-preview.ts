// Dev harness for the Agent panel's webview: serves dist/webview.js on loopback with a fake
// acquireVsCodeApi, posts a rich chat (500 turns, tool calls, masked ones, meter, series, approval),
// drives it (streaming, plot points, open links, Enter to send, snapshot request), prints render
// timings and writes screenshots to test-results/. Run: npm run build && npx tsx scripts/panel-preview.ts [turns]
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from './lib/browser';
import type { ChatItem, ChatSnapshot, CallPoint } from '../src/protocol/chat';

const TURNS = Number(process.argv[2] ?? 500);
const ROOT = process.cwd();
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.html': 'text/html',
};

const THEME = `--vscode-foreground:#cccccc;--vscode-font-family:system-ui,sans-serif;--vscode-font-size:13px;
--vscode-editor-font-family:monospace;--vscode-editor-font-size:12px;--vscode-descriptionForeground:#9d9d9d;
--vscode-button-background:#0078d4;--vscode-button-foreground:#ffffff;--vscode-button-hoverBackground:#026ec1;
--vscode-button-secondaryBackground:#313131;--vscode-button-secondaryForeground:#cccccc;
--vscode-input-background:#313131;--vscode-input-foreground:#cccccc;--vscode-input-border:#3c3c3c;
--vscode-input-placeholderForeground:#989898;--vscode-dropdown-background:#313131;--vscode-dropdown-foreground:#cccccc;
--vscode-dropdown-border:#3c3c3c;--vscode-focusBorder:#0078d4;--vscode-textCodeBlock-background:#2b2b2b;
--vscode-editorWidget-background:#202020;--vscode-widget-border:#313131;--vscode-panel-border:#2b2b2b;
--vscode-textLink-foreground:#4daafc;--vscode-textLink-activeForeground:#4daafc;--vscode-progressBar-background:#0078d4;
--vscode-errorForeground:#f85149;--vscode-charts-blue:#3794ff;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;
--vscode-charts-yellow:#cca700;--vscode-charts-red:#f14c4c;--vscode-badge-background:#616161;--vscode-badge-foreground:#f8f8f8;
--vscode-notificationsInfoIcon-foreground:#3794ff;--vscode-notificationsWarningIcon-foreground:#cca700;
--vscode-notificationsErrorIcon-foreground:#f14c4c;--vscode-editorWarning-foreground:#cca700;
--vscode-inputValidation-warningBackground:#352a05;--vscode-inputValidation-warningBorder:#b89500;`;

const PAGE = `<!DOCTYPE html><html lang="en" style="${THEME.replace(/\n/g, '')}"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/dist/codicons/codicon.css" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="/media/panel.css"><style>body{background:#181818}</style>
<script>
  window.__posted = []; window.__state = undefined;
  const results = { send: { accepted: true }, openStored: { opened: true }, answerApproval: { ok: true } };
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      window.__posted.push(m);
      if (m.type === 'request') setTimeout(() => window.postMessage({ type: 'response', id: m.id, ok: true, result: results[m.method] ?? { ok: true } }, '*'));
    },
    getState: () => window.__state, setState: (s) => { window.__state = s; },
  });
  // Posts a host message; resolves with the ms until the components rendered it and layout ran.
  window.__post = async (m) => {
    const app = document.querySelector('cd-app');
    const t0 = performance.now();
    window.postMessage(m, '*');
    await new Promise((r) => setTimeout(r, 0));
    await app.updateComplete;
    for (const el of app.shadowRoot.querySelectorAll('cd-conversation, cd-plot, cd-meter')) await el.updateComplete;
    void document.body.offsetHeight;
    const ms = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return ms;
  };
</script></head><body><cd-app></cd-app><script type="module" src="/dist/webview.js"></script></body></html>`;

function richChat(turns: number): ChatSnapshot {
  const items: ChatItem[] = [];
  const series: CallPoint[] = [];
  let raw = 2_000;
  for (let t = 1; t <= turns; t++) {
    items.push({
      kind: 'user',
      id: `u${t}`,
      text: t === 1 ? 'Why does the build fail on CI?' : `Next step ${t}, please.`,
      at: t,
    });
    const masked = t < turns - 10 && t % 3 === 0;
    items.push({
      kind: 'assistant',
      id: `a${t}`,
      turn: t,
      streaming: false,
      text:
        t % 4 === 0
          ? `Found it in **src/build.ts** — the \`target\` is wrong:\n\n\`\`\`ts\nexport const target = 'node20';\n\`\`\`\n\n- run the tests\n- check the lockfile`
          : `Reading the files to answer turn ${t}.`,
      tools: [
        {
          callId: `c${t}`,
          tool: t % 2 ? 'read_file' : 'run_command',
          arguments: JSON.stringify(t % 2 ? { path: `src/mod${t}.ts` } : { command: 'npm test' }),
          state: t % 17 === 0 ? 'error' : 'ok',
          durationMs: 120 + t * 7,
          preview: Array.from({ length: 6 }, (_, i) => `line ${i + 1} of output ${t}`).join('\n'),
          storedAt: `.context-desk/outputs/c${t}.txt`,
          masked,
          ...(masked ? { maskedLines: 240 + t } : {}),
        },
      ],
    });
    raw += 1_800;
    series.push({
      call: t,
      raw,
      sent: Math.round(Math.min(raw, 12_000 + (raw % 9_000))),
      cached: Math.round(raw * 0.4),
    });
  }
  items.push({
    kind: 'notice',
    id: 'n1',
    level: 'warning',
    text: 'Budget at 85%.',
    action: { label: 'Show Log', action: 'showLog' },
  });
  return {
    sessionId: 's1',
    status: 'running',
    strategy: 'cache-aware',
    strategies: ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'],
    model: 'openai/gpt-4.1-mini',
    models: ['openai/gpt-4.1-mini', 'anthropic/claude-sonnet-4'],
    items,
    meter: {
      tokensInWindow: 41_230,
      contextWindow: 128_000,
      cachedTokens: 30_100,
      rawHistoryTokens: raw,
      costUnits: 512_000,
      costUsd: 0.2048,
      calls: turns,
      maskedObservations: items.filter((i) => i.kind === 'assistant' && i.tools.some((x) => x.masked)).length,
      estimated: false,
      budget: { state: 'warning', usedPercent: 85, limit: 600_000 },
    },
    series,
    approval: {
      id: 'ap1',
      kind: 'command',
      title: 'Run npm install?',
      detail: 'npm install --save-exact left-pad@1.3.0',
    },
    pastSessions: [{ id: 's0', title: 'Fix the flaky test', createdAt: Date.UTC(2026, 10, 20), turns: 14 }],
  };
}

function serve(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    if (path === '/' || path === '/index.html')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
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
    await page.screenshot({ path: 'test-results/panel-preview.png' });
    assert.ok(Number(rows) < 80, 'the conversation is windowed');
    const atBottom = await page.evaluate(
      `(() => { const s = ${inConv}.querySelector('.scroller'); return s.scrollTop + s.clientHeight >= s.scrollHeight - 30; })()`,
    );
    assert.equal(atBottom, true, 'starts at the newest output');

    // The approval took focus.
    const focused = await page.evaluate(
      `document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot.activeElement?.dataset.testid`,
    );
    assert.equal(focused, 'approve');

    // Streaming: a new assistant item growing chunk by chunk, plus plot points.
    const canvasBefore = await page.evaluate(
      `document.querySelector('cd-app').shadowRoot.querySelector('cd-plot').shadowRoot.querySelector('canvas') !== null`,
    );
    assert.equal(canvasBefore, true);
    await page.evaluate(
      `window.__canvas = document.querySelector('cd-app').shadowRoot.querySelector('cd-plot').shadowRoot.querySelector('canvas')`,
    );
    const n = TURNS + 1;
    await post(page, {
      type: 'notification',
      method: 'chatPatch',
      params: [
        { op: 'upsertItem', item: { kind: 'assistant', id: `a${n}`, turn: n, text: '', streaming: true, tools: [] } },
      ],
    });
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const chunk = i === 10 ? '\n\n```ts\nconst x = 1;\n' : `word${i} `;
      times.push(
        await post(page, {
          type: 'notification',
          method: 'chatPatch',
          params: [{ op: 'appendText', id: `a${n}`, text: chunk }],
        }),
      );
    }
    times.sort((a, b) => a - b);
    console.log(`streaming patch to paint: median ${times[50]!.toFixed(1)} ms, p95 ${times[95]!.toFixed(1)} ms`);
    const pointMs = await post(page, {
      type: 'notification',
      method: 'chatPatch',
      params: [{ op: 'point', point: { call: n, sent: 20_000, raw: 900_000, cached: 10_000 } }],
    });
    const same = await page.evaluate(
      `window.__canvas === document.querySelector('cd-app').shadowRoot.querySelector('cd-plot').shadowRoot.querySelector('canvas')`,
    );
    assert.equal(same, true, 'the chart is updated in place, not re-created');
    console.log(`plot point to paint: ${pointMs.toFixed(1)} ms`);
    const stillBottom = await page.evaluate(
      `(() => { const s = ${inConv}.querySelector('.scroller'); return s.scrollTop + s.clientHeight >= s.scrollHeight - 30; })()`,
    );
    assert.equal(stillBottom, true, 'follows streaming output');
    await page.screenshot({ path: 'test-results/panel-preview-streaming.png' });

    // Scroll to the top: the first turns render, a masked card's open link asks for the stored file.
    await page.evaluate(`${inConv}.querySelector('.scroller').scrollTop = 0`);
    await page.waitForTimeout(300);
    const top = await page.evaluate(`${inConv}.querySelector('.scroller').scrollTop`);
    const first = await page.evaluate(`${inConv}.querySelector('.row')?.dataset.id`);
    console.log(`after scrolling to the top: scrollTop ${String(top)}, first row ${String(first)}`);
    const masked = page.locator('cd-app cd-conversation cd-tool-card[masked] [data-testid="open-masked"]').first();
    await masked.click();
    await page.waitForTimeout(100);
    const opened = (await posted(page)).filter((m) => m.method === 'openStored').map((m) => m.params?.path);
    assert.deepEqual(opened, ['.context-desk/outputs/c3.txt']);
    await page.screenshot({ path: 'test-results/panel-preview-top.png' });

    // The snapshot request counts items and the masked cards actually rendered.
    await post(page, { type: 'request', id: 9001, method: 'snapshot', params: {} });
    const snap = (await posted(page)).find((m) => m.id === 9001)?.result;
    console.log('snapshot:', JSON.stringify(snap));
    assert.equal((snap as { items: number }).items, chat.items.length + 1);
    assert.ok((snap as { maskedShown: number }).maskedShown > 0);

    // Composer: Enter sends when idle; the draft is kept in the webview state.
    await post(page, {
      type: 'notification',
      method: 'chatPatch',
      params: [
        { op: 'status', status: 'idle' },
        { op: 'approval', approval: undefined },
      ],
    });
    const box = page.locator('cd-app [data-testid="composer"]');
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second');
    const saved = await page.evaluate('window.__state.draft');
    assert.equal(saved, 'first line\nsecond');
    await box.press('Enter');
    await page.waitForTimeout(100);
    const sent = (await posted(page)).filter((m) => m.method === 'send').map((m) => m.params?.text);
    assert.deepEqual(sent, ['first line\nsecond']);
    assert.equal(await page.locator('cd-app [data-testid="status"]').textContent(), 'Ready');
    // A short, narrow sidebar still shows the conversation and the composer.
    await page.setViewportSize({ width: 300, height: 420 });
    const hint =
      'No model is configured. Set contextDesk.agent.model (and contextDesk.agent.baseUrl for an OpenAI-compatible server).';
    await post(page, {
      type: 'notification',
      method: 'chatSnapshot',
      params: { ...chat, status: 'idle', approval: undefined, setupHint: hint },
    });
    await page.waitForTimeout(300);
    await page.locator('cd-app [data-testid="setup-hint"] vscode-button').click();
    await page.waitForTimeout(100);
    const configure = (await posted(page)).filter((m) => m.method === 'noticeAction');
    assert.deepEqual(
      configure.map((m) => m.params),
      [{ action: 'configure' }],
    );
    await page.screenshot({ path: 'test-results/panel-preview-narrow.png' });
    const composerBox = await page.locator('cd-app [data-testid="composer"]').boundingBox();
    assert.ok(composerBox && composerBox.y + composerBox.height <= 420, 'the composer stays in view');
    assert.deepEqual(errors, [], 'no page errors');
    console.log('all checks passed; screenshots in test-results/panel-preview*.png');
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
