// Runs each scenario in test/e2e/*.e2e.ts against a real VS Code in headless Chromium, with the built
// extension installed the way a user installs it. Screenshots go to test-results/.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openWorkbench } from './lib/workbench';
import { onCleanup, runMain } from './lib/cleanup';
import { findFiles } from './lib/files';
import type { E2eScenario } from '../test/e2e/context';

async function runScenario(file: string): Promise<boolean> {
  const scenario = (await import(resolve(file))) as E2eScenario;
  const workspace = mkdtempSync(join(tmpdir(), 'context-desk-e2e-ws-'));
  if (existsSync('test/fixtures/workspace')) cpSync('test/fixtures/workspace', workspace, { recursive: true });
  const started = Date.now();
  const cleanup = (await scenario.setup?.(workspace)) ?? undefined;
  let tornDown = false;
  const teardown = async (): Promise<void> => {
    if (!tornDown && cleanup) await cleanup();
    tornDown = true;
  };
  onCleanup(teardown);
  const { page, server, browser } = await openWorkbench({
    folder: workspace,
    extensionPath: resolve('.'),
    installed: true,
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const shot = async (name: string): Promise<string> => {
    const path = `test-results/${name}.png`;
    await page.screenshot({ path });
    console.log(`    screenshot: ${path}`);
    return path;
  };
  try {
    await scenario.run({ page, workspace, screenshot: shot });
    console.log(`  ✔ ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    await shot(`failure-${file.replace(/\W+/g, '_')}`).catch(() => undefined);
    console.error(`  ✖ ${scenario.name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    if (pageErrors.length) console.error(`    page errors:\n      ${pageErrors.slice(-5).join('\n      ')}`);
    return false;
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    await teardown();
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) return 1;
  mkdirSync('test-results', { recursive: true });
  const filters = process.argv.slice(2);
  const files = findFiles('test/e2e', '.e2e.ts').filter(
    (f) => filters.length === 0 || filters.some((x) => f.includes(x)),
  );
  let passed = 0;
  let failed = 0;
  for (const f of files) {
    if (await runScenario(f)) passed++;
    else failed++;
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

runMain(main);
