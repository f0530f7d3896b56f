// Runs test/integration inside the extension host of a real VS Code (code-server 4.100.3) opened in
// headless Chromium. The workbench reports the verdict of mocha's run() through codeAutomationExit.
// Two windows, one after the other: the main suite (*.test.ts, workspace trust off) and the hostile
// workspace suite (*.hostile.ts, workspace trust on, the folder untrusted until the test asks for trust).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { format } from 'node:util';
import type { Page } from 'playwright-core';
import { openWorkbench } from './lib/workbench';
import { buildHostileWorkspace } from './lib/hostile-workspace';
import { onCleanup, runMain } from './lib/cleanup';

/** Workbench chatter that says nothing about the tests. */
const NOISE = [
  'Ignoring fetching additional builtin extensions',
  'Creating a socket',
  'Resolving connection token',
  'Resolved connection token',
  '[Service Worker]',
  'ChatSessionStore',
  'Updating additional builtin extensions cache',
];
const TIMEOUT_MS = Number(process.env.CONTEXT_DESK_INTEGRATION_TIMEOUT_MS ?? 300_000);

interface SuiteRun {
  name: string;
  folder: string;
  resultsFile: string;
  env?: Record<string, string>;
  workspaceTrust?: boolean;
  /** Called with each line the extension host logs (the hostile suite asks for trust this way). */
  onLine?: (line: string, page: Page) => Promise<void>;
}

/** Runs one suite in its own code-server window; returns its exit code and counts. */
async function runSuite(run: SuiteRun): Promise<{ code: number; passed: number; failed: number }> {
  rmSync(run.resultsFile, { force: true });
  let exitCode: number | undefined;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((r) => (settle = r));
  const { page, server, browser } = await openWorkbench(
    {
      folder: run.folder,
      extensionPath: resolve('.'),
      testsPath: resolve('out/test/integration/index.js'),
      env: { CONTEXT_DESK_TEST_RESULTS: run.resultsFile, CONTEXT_DESK_SUITE: '', ...run.env },
      verbose: process.env.CONTEXT_DESK_VERBOSE === '1',
      ...(run.workspaceTrust ? { workspaceTrust: true } : {}),
    },
    async (p) => {
      await p.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
        const line = format(...args);
        if (process.env.CONTEXT_DESK_VERBOSE === '1' || !NOISE.some((n) => line.includes(n))) console.log(line);
        if (run.onLine) void run.onLine(line, p).catch((e: unknown) => console.error(`[${run.name}] ${String(e)}`));
      });
      await p.exposeFunction('codeAutomationExit', (code: number) => {
        exitCode = code;
        settle();
      });
    },
  );
  page.on('pageerror', (e) => console.error(`[workbench] ${e.message}`));
  const timer = setTimeout(settle, TIMEOUT_MS);
  await done;
  clearTimeout(timer);
  try {
    if (exitCode === undefined) {
      const shot = `test-results/integration-${run.name}-timeout.png`;
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.error(`Integration suite ${run.name} did not finish within ${TIMEOUT_MS / 1000} s (screenshot: ${shot})`);
      return { code: 1, passed: 0, failed: 0 };
    }
    let summary = { passed: 0, failed: 0 };
    if (existsSync(run.resultsFile)) summary = JSON.parse(readFileSync(run.resultsFile, 'utf8')) as typeof summary;
    return { code: exitCode, ...summary };
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}

/** The hostile suite's request: open the Workspace Trust editor's "Trust" as a person would. */
async function grantTrust(line: string, page: Page): Promise<void> {
  if (!line.includes('CONTEXT_DESK_GRANT_TRUST')) return;
  const trust = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ });
  await trust.first().waitFor({ timeout: 30_000 });
  await trust.first().click();
}

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) return 1;
  mkdirSync('test-results', { recursive: true });
  const resultsFile = resolve('test-results/integration.json');
  const workspace = mkdtempSync(join(tmpdir(), 'context-desk-it-ws-'));
  onCleanup(() => rmSync(workspace, { recursive: true, force: true }));
  if (existsSync('test/fixtures/workspace')) cpSync('test/fixtures/workspace', workspace, { recursive: true });
  const hostile = buildHostileWorkspace(resolve('.'));
  onCleanup(() => rmSync(hostile.base, { recursive: true, force: true }));

  const started = Date.now();
  const runs: SuiteRun[] = [
    { name: 'main', folder: workspace, resultsFile },
    {
      name: 'hostile',
      folder: hostile.ws,
      resultsFile: resolve('test-results/integration-hostile.json'),
      env: { CONTEXT_DESK_SUITE: 'hostile', CONTEXT_DESK_HOSTILE_BASE: hostile.base },
      workspaceTrust: true,
      onLine: grantTrust,
    },
  ].filter((r) => !process.env.CONTEXT_DESK_SUITE_ONLY || r.name === process.env.CONTEXT_DESK_SUITE_ONLY);
  let passed = 0;
  let failed = 0;
  let code = 0;
  for (const run of runs) {
    const r = await runSuite(run);
    console.log(`Integration suite ${run.name}: exit code ${r.code}, ${r.passed} passed, ${r.failed} failed`);
    passed += r.passed;
    failed += r.failed;
    if (r.code !== 0 || r.failed > 0 || r.passed === 0) code = 1;
  }
  writeFileSync(resultsFile, JSON.stringify({ passed, failed }));
  console.log(`\nIntegration tests finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return code;
}

runMain(main);
