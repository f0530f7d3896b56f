// Runs test/integration inside the extension host of a real VS Code (code-server 4.100.3) opened in
// headless Chromium. The workbench reports the verdict of mocha's run() through codeAutomationExit.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { format } from 'node:util';
import { openWorkbench } from './lib/workbench';
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

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) return 1;
  mkdirSync('test-results', { recursive: true });
  const resultsFile = resolve('test-results/integration.json');
  rmSync(resultsFile, { force: true });
  const workspace = mkdtempSync(join(tmpdir(), 'context-desk-it-ws-'));
  onCleanup(() => rmSync(workspace, { recursive: true, force: true }));
  if (existsSync('test/fixtures/workspace')) cpSync('test/fixtures/workspace', workspace, { recursive: true });

  let exitCode: number | undefined;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((r) => (settle = r));
  const started = Date.now();
  const { page } = await openWorkbench(
    {
      folder: workspace,
      extensionPath: resolve('.'),
      testsPath: resolve('out/test/integration/index.js'),
      env: { CONTEXT_DESK_TEST_RESULTS: resultsFile },
      verbose: process.env.CONTEXT_DESK_VERBOSE === '1',
    },
    async (p) => {
      await p.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
        const line = format(...args);
        if (process.env.CONTEXT_DESK_VERBOSE === '1' || !NOISE.some((n) => line.includes(n))) console.log(line);
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
  if (exitCode === undefined) {
    await page.screenshot({ path: 'test-results/integration-timeout.png' }).catch(() => undefined);
    console.error(
      `Integration tests did not finish within ${TIMEOUT_MS / 1000} s (screenshot: test-results/integration-timeout.png)`,
    );
    return 1;
  }
  let summary = { passed: 0, failed: 0 };
  if (existsSync(resultsFile)) summary = JSON.parse(readFileSync(resultsFile, 'utf8')) as typeof summary;
  else writeFileSync(resultsFile, JSON.stringify({ ...summary, note: 'the test runner wrote no results' }));
  console.log(
    `\nIntegration tests finished in ${((Date.now() - started) / 1000).toFixed(1)} s with exit code ${exitCode}`,
  );
  console.log(`${summary.passed} passed, ${summary.failed} failed`);
  return exitCode === 0 && summary.failed === 0 && summary.passed > 0 ? 0 : 1;
}

runMain(main);
