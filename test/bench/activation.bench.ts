// Activation cost in a real VS Code: the extension logs the time from activate() entry to return;
// this reads it from the extension host's log, over several fresh starts, next to the time the user
// waits from clicking the activity-bar item to seeing the panel. Goal: activate() under 50 ms.
import { readdirSync, readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openWorkbench } from '../../scripts/lib/workbench';
import { runCleanups } from '../../scripts/lib/cleanup';

const RUNS = Number(process.env.RUNS ?? 3);
const GOAL_MS = 50;

function findLogLine(dir: string): number | undefined {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) {
      const found = findLogLine(p);
      if (found !== undefined) return found;
    } else if (e.endsWith('.log')) {
      const m = /Context Desk [\d.]+ activated in ([\d.]+) ms/.exec(readFileSync(p, 'utf8'));
      if (m) return Number(m[1]);
    }
  }
  return undefined;
}

async function once(): Promise<{ activateMs: number; clickToPanelMs: number }> {
  const workspace = mkdtempSync(join(tmpdir(), 'context-desk-bench-ws-'));
  const { page, server, browser } = await openWorkbench({
    folder: workspace,
    extensionPath: resolve('.'),
    installed: true,
  });
  try {
    const item = page.locator('.activitybar [aria-label^="Context Desk"]').first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    const clicked = Date.now();
    await item.click();
    let shown = false;
    while (!shown && Date.now() - clicked < 60_000) {
      for (const f of page.frames())
        if (
          await f
            .locator('[data-testid="connection"]')
            .count()
            .catch(() => 0)
        )
          shown = true;
      if (!shown) await page.waitForTimeout(20);
    }
    const clickToPanelMs = Date.now() - clicked;
    let activateMs: number | undefined;
    for (let i = 0; i < 50 && activateMs === undefined; i++) {
      activateMs = findLogLine(server.tempDir);
      if (activateMs === undefined) await page.waitForTimeout(100);
    }
    if (activateMs === undefined) throw new Error('the activation log line was not found');
    return { activateMs, clickToPanelMs };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  spawnSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const act = median(runs.map((r) => r.activateMs));
  const click = median(runs.map((r) => r.clickToPanelMs));
  console.log(`runs: ${RUNS} fresh VS Code starts (production bundle)`);
  console.log(
    `activate() entry to return: median ${act.toFixed(1)} ms; ratio to the ${GOAL_MS} ms goal: ${(act / GOAL_MS).toFixed(2)}x ${act < GOAL_MS ? '(ok)' : '(OVER GOAL)'}`,
  );
  console.log(
    `click on the activity bar to panel connected: median ${click} ms; activate() is ${((act / click) * 100).toFixed(1)} % of it`,
  );
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
