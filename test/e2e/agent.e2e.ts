// The agent panel end to end, at 1440x900 with the Tools view open (the Agent view taking most of the
// height) and the terminal shown: a long task
// (a scripted model on loopback, 18 turns) ends with the composer, Send and the latest message in view
// without scrolling, in the dark, light and high-contrast themes, and again with the panel at 300x400.
// An early observation is masked and "open" opens its file; hostile HTML in the answer cannot cover the
// controls; Stop (in the view's title) stops a run that hangs; an unsent draft survives hiding the view.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import { longTaskScript, LONG_TASK_ANSWER } from '../support/long-task-script';
import { waitFor } from '../support/wait';
import { openAgentPanel, reachable, runCommand, scrollUntil, type E2eContext } from './context';
import { THEMES, useTheme } from './themes';

export const name = 'Agent panel: layout at 1440x900 and 300x400 in three themes, masking, open, hostile output, Stop';

/** An answer that tries to cover the panel with positioned HTML (the sanitizer's config is h9's; the layout must hold anyway). */
const HOSTILE =
  '\n\n<div style="position:fixed;inset:0;z-index:2147483647;background:red">covered</div>' +
  '<a href="#" style="position:fixed;left:0;bottom:0;width:100vw;height:200px;z-index:2147483647;background:blue">x</a>';

let server: ScriptedServer | undefined;

/** Approvals off is the user's choice (a workspace value would be ignored). */
export const userSettings = { 'contextDesk.agent.approveCommands': false };

export async function setup(workspace: string): Promise<() => Promise<void>> {
  server = await startScriptedModelServer([
    ...longTaskScript({ turns: 18, chunkDelayMs: 2, answer: LONG_TASK_ANSWER + HOSTILE }),
    { fault: 'hang', text: 'Thinking about the next step' },
  ]);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'contextDesk.agent.baseUrl': server.baseURL,
        'contextDesk.agent.model': 'scripted-model',
        'contextDesk.strategy': 'masking',
        'contextDesk.maskingWindow': 3,
      },
      null,
      2,
    ),
  );
  return async () => server?.close();
}

export async function run({ page, workspace, screenshot }: E2eContext): Promise<void> {
  const panel = await openAgentPanel(page, '[data-testid="composer"]');
  // The terminal panel shown (the fixture's build task may have opened it already). Only the active
  // terminal's wrapper is visible: with the task's terminal and a shell, the first may be the hidden one.
  await runCommand(page, 'Terminal: Focus Terminal');
  await page.locator('.part.panel .terminal-wrapper').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
  assert.ok(await page.locator('.pane-header', { hasText: 'Tools' }).first().isVisible(), 'the Tools view is open');
  // The conversation takes most of the height at first (the views' initialSize), Tools the rest.
  const agentBox = (await page.locator('iframe.webview').first().boundingBox())!;
  const toolsTop = (await page.locator('.pane-header', { hasText: 'Tools' }).first().boundingBox())!.y;
  const sidebar = (await page.locator('.part.sidebar').first().boundingBox())!;
  const toolsHeight = sidebar.y + sidebar.height - toolsTop;
  assert.ok(
    agentBox.height >= 2.5 * toolsHeight,
    `the Agent view (${Math.round(agentBox.height)} px) is much taller than Tools (${Math.round(toolsHeight)} px)`,
  );

  await panel.locator('[data-testid="composer"]').fill('Find where the build warning comes from.');
  await panel.locator('[data-testid="composer"]').press('Enter');
  await panel.locator('[data-testid="status"]', { hasText: 'Running' }).waitFor({ timeout: 15_000 });
  await panel.locator('[data-testid="status"]', { hasText: 'Completed' }).waitFor({ timeout: 180_000 });
  assert.ok(server!.chatRequests().length >= 19, `18 turns (${server!.chatRequests().length} calls)`);

  for (const theme of THEMES) {
    await useTheme(page, workspace, theme);
    await assertInView(page, panel, 'at 1440x900');
    await screenshot(`layout-1440x900-${theme.file}`);
  }
  for (const id of ['send', 'composer', 'meter-toggle'])
    assert.equal(await reachable(panel, id), true, `model output does not cover ${id}`);

  // The meter opens into the details and the plot.
  await panel.locator('[data-testid="meter-toggle"]').click();
  const details = (await panel.locator('[data-testid="meter-details"]').innerText()).replace(/\s+/g, ' ');
  assert.match(details, /Calls 19/);
  assert.match(details, /units/, 'cost is labelled (no price known: units)');
  await panel.locator('cd-plot canvas').first().waitFor({ timeout: 10_000 });
  await panel.locator('[data-testid="meter-toggle"]').click();

  // The panel at 300x400: drag the sash between the Agent and Tools views, then check again.
  await resizeAgentView(page, 400);
  const box = await page.locator('iframe.webview').first().boundingBox();
  assert.ok(
    box && Math.abs(box.width - 300) <= 2 && Math.abs(box.height - 400) <= 4,
    `panel is 300x400 (${JSON.stringify(box)})`,
  );
  for (const theme of THEMES) {
    await useTheme(page, workspace, theme);
    await assertInView(page, panel, 'at 300x400');
    await page.screenshot({
      path: `test-results/layout-300x400-${theme.file}.png`,
      clip: { x: 0, y: 0, width: 360, height: 560 },
    });
  }

  // An early observation was masked: scroll to it ("Jump to latest" appears) and open its file.
  const masked = panel.locator('[data-testid="open-masked"]');
  await scrollUntil(panel, masked);
  await panel.locator('[data-testid="jump-to-latest"]').waitFor({ timeout: 5_000 });
  const label = await panel.locator('[data-testid="masked"]').first().innerText();
  assert.match(label, /^Masked(, not stored)?: the model now sees a one-line placeholder/);
  await screenshot('agent-panel-masked');
  await masked.first().click();
  await page
    .locator('.tabs-container .tab', { hasText: /^\d+-(run_command|grep|read_file|tail|list_dir)\.txt/ })
    .first()
    .waitFor({ timeout: 15_000 });
  await panel.locator('[data-testid="jump-to-latest"]').click();

  // A run that hangs, stopped from the view's title bar.
  const asked = server!.chatRequests().length;
  await panel.locator('[data-testid="composer"]').fill('One more thing.');
  await panel.locator('[data-testid="send"]').click();
  await panel.locator('[data-testid="status"]', { hasText: 'Running' }).waitFor({ timeout: 15_000 });
  // The model got the message and is now streaming; it never finishes.
  await waitFor(() => server!.chatRequests().length > asked, 15_000, 'the hanging call reaches the model');
  await panel.getByText('Thinking about the next step').first().waitFor({ timeout: 15_000 });
  const stop = page.locator('.pane-header .action-label[aria-label^="Stop Agent"]').first();
  await stop.click();
  await panel.locator('[data-testid="status"]', { hasText: 'Stopped' }).waitFor({ timeout: 15_000 });
  await stop.waitFor({ state: 'hidden', timeout: 5_000 });
  await screenshot('agent-panel-stopped');

  // An unsent draft survives hiding the view (the webview is destroyed): the host keeps it, since the
  // webview's own state is written to disk as it is and a draft may hold a key.
  const draft = 'deploy with ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 later';
  await panel.locator('[data-testid="composer"]').fill(draft);
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  await page.locator('.part.sidebar .composite.title', { hasText: /explorer/i }).waitFor({ timeout: 15_000 });
  const shown = await openAgentPanel(page, '[data-testid="composer"]');
  await waitFor(
    async () => (await shown.locator('[data-testid="composer"]').inputValue()) === draft,
    15_000,
    'the draft is back in the composer',
  );
}

/** The composer, Send and the end of the latest message are inside the panel and the window, unscrolled. */
async function assertInView(page: Page, panel: Frame, where: string): Promise<void> {
  await page.waitForTimeout(300);
  const view = await page.locator('iframe.webview').first().boundingBox();
  const win = page.viewportSize()!;
  assert.ok(view, 'the panel is shown');
  const inside = async (what: string, locator: ReturnType<Frame['locator']>, whole = true): Promise<void> => {
    const b = await locator.boundingBox();
    assert.ok(b, `${what} is rendered ${where}`);
    const bottom = b.y + b.height;
    const ok =
      b.x >= view.x - 1 &&
      b.x + b.width <= view.x + view.width + 1 &&
      bottom <= Math.min(view.y + view.height, win.height) + 1 &&
      (whole ? b.y >= view.y - 1 : bottom > view.y);
    assert.ok(ok, `${what} is visible ${where}: ${JSON.stringify(b)} in ${JSON.stringify(view)}`);
  };
  await inside('the composer', panel.locator('[data-testid="composer"]'));
  await inside('Send', panel.locator('[data-testid="send"]'));
  // The latest message's end is in view (a long one may start above).
  const last = panel.locator('[data-testid="conversation"] .row').last();
  await inside('the latest message', last, false);
  assert.match(await last.innerText(), /Task complete|One more thing|Stopped/);
  const scrolled = await panel.evaluate('document.scrollingElement.scrollTop + window.scrollY');
  assert.equal(scrolled, 0, 'the panel itself is not scrolled');
}

/** Drags the sash under the Agent view until its webview is `height` px tall. */
async function resizeAgentView(page: Page, height: number): Promise<void> {
  const frame = page.locator('iframe.webview').first();
  for (let i = 0; i < 3; i++) {
    const box = (await frame.boundingBox())!;
    const delta = height - box.height;
    if (Math.abs(delta) <= 2) return;
    const tools = (await page.locator('.pane-header', { hasText: 'Tools' }).first().boundingBox())!;
    const y = tools.y - 1;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y + delta, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
  }
}
