// Runs each scenario in test/e2e/*.e2e.ts against a real VS Code in headless Chromium. The extension is
// packaged as a VSIX once (`npm run package`, offline) and installed into each fresh VS Code with
// `--install-extension`, the way a user installs it: every scenario also checks that the VSIX activates.
// Screenshots go to test-results/.
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openWorkbench } from './lib/workbench';
import { onCleanup, runMain } from './lib/cleanup';
import { findFiles } from './lib/files';
import type { E2eScenario } from '../test/e2e/context';

const VSIX = 'dist/context-desk.vsix';

/** Packs the VSIX (production build, offline) and checks what it holds. */
function packageVsix(): boolean {
  const started = Date.now();
  const r = spawnSync('npm', ['run', '--silent', 'package'], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
    return false;
  }
  const list = spawnSync('unzip', ['-l', VSIX], { encoding: 'utf8' }).stdout;
  const missing = ['extension/dist/extension.js', 'extension/dist/webview.js', 'extension/media/icon.png'].filter(
    (f) => !list.includes(f),
  );
  // The README inside carries its images inline (scripts/package.ts): no repository to fetch them from.
  const readme = spawnSync('unzip', ['-p', VSIX, 'extension/readme.md'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  }).stdout;
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  if (images.length === 0 || images.some((src) => !src.startsWith('data:image/png;base64,')))
    missing.push(`README images inline (found ${images.map((i) => i.slice(0, 30)).join(', ') || 'none'})`);
  if (missing.length > 0) {
    console.error(`${VSIX} lacks ${missing.join(', ')}`);
    return false;
  }
  console.log(`  packaged ${VSIX} in ${((Date.now() - started) / 1000).toFixed(1)} s (README images inline)`);
  return true;
}

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
  if (scenario.standalone) return runStandalone(scenario, workspace, started, teardown);
  const { page, server, browser } = await openWorkbench({
    folder: workspace,
    extensionPath: resolve('.'),
    vsix: VSIX,
    ...(scenario.userSettings ? { settings: scenario.userSettings } : {}),
    viewport: scenario.viewport ?? { width: 1440, height: 900 },
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
    // Installed from the VSIX, not linked: a real folder under the extensions dir.
    const installed = readdirSync(server.extensionsDir).filter((d) => d.startsWith('context-desk.context-desk-'));
    if (installed.length !== 1 || lstatSync(join(server.extensionsDir, installed[0]!)).isSymbolicLink())
      throw new Error(`the VSIX was not installed into ${server.extensionsDir} (${installed.join(', ') || 'nothing'})`);
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

/** A scenario that starts its own VS Code (e.g. `npm start`); it takes screenshots of its own pages. */
async function runStandalone(
  scenario: E2eScenario,
  workspace: string,
  started: number,
  teardown: () => Promise<void>,
): Promise<boolean> {
  try {
    await scenario.run({
      page: undefined as never,
      workspace,
      screenshot: () => Promise.reject(new Error('standalone')),
    });
    console.log(`  ✔ ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    console.error(`  ✖ ${scenario.name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return false;
  } finally {
    await teardown();
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) return 1;
  mkdirSync('test-results', { recursive: true });
  if (!packageVsix()) return 1;
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
