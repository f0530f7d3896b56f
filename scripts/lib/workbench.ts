// Opens the real VS Code workbench in Chromium, optionally running the extension's integration tests
// inside its extension host and waiting for their verdict.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { startCodeServer, workbenchUrl, type CodeServer } from './code-server';
import { onCleanup } from './cleanup';

export interface Session {
  server: CodeServer;
  browser: Browser;
  page: Page;
}

export interface OpenOptions {
  folder: string;
  extensionPath: string;
  /** Load the extension as installed (copy in extensions dir) instead of as extensionDevelopmentPath. */
  installed?: boolean;
  testsPath?: string;
  env?: Record<string, string>;
  verbose?: boolean;
  settings?: Record<string, unknown>;
  /** Workspace trust on: the folder opens in Restricted Mode. */
  workspaceTrust?: boolean;
  /** Install this VSIX with `--install-extension` (the way users install it) instead of linking the folder. */
  vsix?: string;
  viewport?: { width: number; height: number };
}

/** Starts code-server and a browser, registers cleanup for both, and opens the workbench. */
export async function openWorkbench(opts: OpenOptions, beforeGoto?: (page: Page) => Promise<void>): Promise<Session> {
  Object.assign(process.env, opts.env ?? {});
  const server = await startCodeServer({
    ...(opts.installed && !opts.vsix ? { installExtensionFrom: opts.extensionPath } : {}),
    ...(opts.vsix ? { installVsix: opts.vsix } : {}),
    ...(opts.settings ? { settings: opts.settings } : {}),
    ...(opts.workspaceTrust ? { workspaceTrust: true } : {}),
    ...(opts.verbose ? { log: (l: string) => console.log(`[code-server] ${l}`) } : {}),
  });
  onCleanup(() => server.stop());
  const browser = await launchBrowser();
  onCleanup(() => browser.close());
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
  if (beforeGoto) await beforeGoto(page);
  mkdirSync(opts.folder, { recursive: true });
  const url = workbenchUrl(
    server,
    opts.folder,
    opts.installed || opts.vsix
      ? undefined
      : { extensionPath: opts.extensionPath, ...(opts.testsPath ? { testsPath: opts.testsPath } : {}) },
  );
  await page.goto(url);
  return { server, browser, page };
}
