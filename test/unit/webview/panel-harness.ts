// The Agent panel in a real headless Chromium for the webview tests: the webview's bundle (built here
// with esbuild), its markup and a stand-in for VS Code's webview API (test/bench/panel/page.ts), served
// on loopback, in one of the three themes' colours (scripts/lib/panel-themes.ts).
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../scripts/lib/browser';
import { BACKGROUND, THEMES, type ThemeName } from '../../../scripts/lib/panel-themes';
import { panelPage } from '../../bench/panel/page';
import { PROTOCOL_VERSION } from '../../../src/protocol/messages';
import type { ChatPatch, ChatSnapshot } from '../../../src/protocol/chat';

export interface Panel {
  open(snapshot: ChatSnapshot, o?: { width?: number; height?: number; theme?: ThemeName }): Promise<Page>;
  close(): Promise<void>;
}

const SETTINGS = { strategy: 'masking', maskingWindow: 10, tokenizer: 'o200k', cachedInputPrice: 0.1 };

export async function startPanel(): Promise<Panel> {
  const out = mkdtempSync(join(tmpdir(), 'cd-panel-'));
  const codicons = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  await build({
    bundle: true,
    logLevel: 'warning',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: out,
    loader: { '.css': 'text' },
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = normalize(decodeURIComponent(url.pathname));
    if (p === '/') {
      const size = { width: Number(url.searchParams.get('w')), height: Number(url.searchParams.get('h')) };
      const theme = (url.searchParams.get('theme') ?? 'dark') as ThemeName;
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(panelPage(size, { vars: THEMES[theme], background: BACKGROUND[theme] }));
    }
    const file =
      p === '/dist/webview.js'
        ? join(out, 'webview.js')
        : p.startsWith('/dist/codicons/')
          ? join(codicons, p.slice('/dist/codicons/'.length))
          : p.startsWith('/media/')
            ? join(process.cwd(), p)
            : undefined;
    if (!file) return void res.writeHead(404).end();
    const type = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' }[extname(file)];
    try {
      res.writeHead(200, { 'content-type': type ?? 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const a = server.address();
  const base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`;
  const browser: Browser = await launchBrowser();
  return {
    async open(snapshot, o = {}) {
      const { width = 300, height = 600, theme = 'dark' } = o;
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`${base}?w=${width}&h=${height}&theme=${theme}`);
      await page.waitForFunction("window.__posted.some((m) => m.type === 'ready')");
      await page.evaluate((m) => window.postMessage(m, '*'), {
        type: 'init',
        payload: { protocolVersion: PROTOCOL_VERSION, extensionVersion: '0.1.0', settings: SETTINGS, chat: snapshot },
      });
      await page.locator('cd-app [data-testid="composer"]').waitFor();
      return page;
    },
    async close() {
      await browser.close();
      server.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/**
 * Hides the view and shows it again: VS Code discards a hidden webview's page and keeps only its state
 * (getState) and what the host keeps (here: the panel's last `keepMemory`), which the new page's init carries.
 */
export async function hideAndShow(
  page: Page,
  snapshot: ChatSnapshot,
  /** What the stand-in host answers (window.__results) in the new page. */
  results: Record<string, unknown> = {},
): Promise<void> {
  const memory = await page.evaluate(
    `window.__posted.filter((m) => m.type === 'request' && m.method === 'keepMemory').map((m) => m.params).pop()`,
  );
  await page.reload();
  await page.waitForFunction("window.__posted.some((m) => m.type === 'ready')");
  await page.evaluate((r) => Object.assign(window, { __results: r }), results);
  await page.evaluate((m) => window.postMessage(m, '*'), {
    type: 'init',
    payload: {
      protocolVersion: PROTOCOL_VERSION,
      extensionVersion: '0.1.0',
      settings: SETTINGS,
      chat: snapshot,
      memory,
    },
  });
  await page.locator('cd-app main').waitFor();
}

export const patch = (page: Page, params: ChatPatch[]): Promise<void> =>
  page.evaluate((m) => window.postMessage(m, '*'), { type: 'notification', method: 'chatPatch', params });

/** The element that has the focus, through shadow roots: its data-testid or tag name. */
export const FOCUSED = `(() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a ? (a.dataset.testid || a.tagName.toLowerCase()) : 'none'; })()`;

/** A chat with a model set up, nothing said yet, and the meter of three calls. */
export function emptyChat(over: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return {
    sessionId: 's1',
    status: 'idle',
    strategy: 'masking',
    strategies: ['masking', 'raw'],
    model: 'openai-compatible/gpt-4.1-mini',
    models: ['gpt-4.1-mini'],
    setup: { provider: 'openai-compatible', ready: true, endpoint: 'http://127.0.0.1:11434/v1' },
    items: [],
    meter: {
      tokensInWindow: 41_230,
      contextWindow: 128_000,
      cachedTokens: 30_100,
      rawHistoryTokens: 90_000,
      costUnits: 512_000,
      calls: 3,
      maskedObservations: 0,
      estimated: false,
    },
    series: [],
    pastSessions: [],
    ...over,
  };
}
