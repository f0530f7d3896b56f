// `npm start` keeps its user data between runs: the demo model chosen in the panel is still chosen after
// the server is stopped (Ctrl-C) and started again. Runs scripts/start.ts itself, with its user data in a
// temporary folder instead of ~/.cache/context-desk/start.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../scripts/lib/browser';
import { onCleanup } from '../../scripts/lib/cleanup';
import { openAgentPanel, type E2eContext } from './context';

export const name = 'npm start: settings chosen in the panel survive a restart';
export const standalone = true;

interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `npm start` (without its build: the runner built already) and waits for its URL. */
async function start(dir: string, workspace: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--no-build'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CONTEXT_DESK_START_DIR: dir,
      CONTEXT_DESK_START_WORKSPACE: workspace,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGINT'); // what Ctrl-C sends: start.ts stops code-server on its way out
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  onCleanup(stop);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL within 90 s:\n${out}`)), 90_000);
    const read = (b: Buffer): void => {
      out += b.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(out);
      if (m && out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
  });
  assert.match(out, /Settings and keys: .* \(kept between runs\)/);
  assert.match(out, /Try the demo model/);
  return { child, url, stop };
}

export async function run({ workspace }: E2eContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'context-desk-start-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const browser: Browser = await launchBrowser();
  onCleanup(() => browser.close());
  const settingsFile = join(dir, 'user-data', 'User', 'settings.json');

  const first = await start(dir, workspace);
  let page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(first.url);
  let panel = await openAgentPanel(page, '[data-testid="try-demo"]');
  await panel.locator('[data-testid="try-demo"]').click();
  await panel
    .locator('[data-testid="status"]', { hasText: 'Running' })
    .waitFor({ timeout: 30_000 })
    .catch(async (e: unknown) => {
      // Say what the panel showed instead (a refusal, a problem under the button).
      throw new Error(`${String(e)}\nThe panel showed: ${await panel.locator('body').innerText()}`);
    });
  const deadline = Date.now() + 15_000;
  while (!(
    existsSync(settingsFile) && /"contextDesk\.agent\.provider": "demo"/.test(readFileSync(settingsFile, 'utf8'))
  ))
    if (Date.now() > deadline) throw new Error(`the choice never reached ${settingsFile}`);
    else await page.waitForTimeout(200);
  await page.close();
  await first.stop();

  const second = await start(dir, workspace);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(second.url);
  panel = await openAgentPanel(page, '[data-testid="welcome"]');
  await panel.locator('[data-testid="start-demo"]').waitFor({ timeout: 30_000 });
  assert.match(await panel.locator('[data-testid="model-picker"] option:checked').innerText(), /Demo model/);
  await page.screenshot({ path: 'test-results/npm-start-restarted.png' });
  console.log('    screenshot: test-results/npm-start-restarted.png');
  await page.close();
  await second.stop();
}
