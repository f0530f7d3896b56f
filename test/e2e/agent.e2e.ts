// The agent panel end to end: a user types a task, the agent (a scripted model on loopback) calls tools
// over 18 turns, an early observation shows as masked and "open" opens its file, the meter and plot
// fill in, and Stop stops a run that hangs.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import { longTaskScript, LONG_TASK_ANSWER } from '../support/long-task-script';
import { waitFor } from '../support/wait';
import { findFrame, type E2eContext } from './context';

export const name = 'Agent panel: a long task with masking, open, meter, plot and Stop';

let server: ScriptedServer | undefined;

export async function setup(workspace: string): Promise<() => Promise<void>> {
  server = await startScriptedModelServer([
    ...longTaskScript({ turns: 18, chunkDelayMs: 3 }),
    { fault: 'hang', text: 'Thinking about the next step' },
  ]);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'contextDesk.agent.baseUrl': server.baseURL,
        'contextDesk.agent.model': 'scripted-model',
        'contextDesk.agent.approveCommands': false,
        'contextDesk.strategy': 'masking',
        'contextDesk.maskingWindow': 3,
      },
      null,
      2,
    ),
  );
  return async () => server?.close();
}

export async function run({ page, screenshot }: E2eContext): Promise<void> {
  const item = page.locator('.activitybar [aria-label^="Context Desk"]').first();
  await item.waitFor({ state: 'visible', timeout: 60_000 });
  await item.click();
  const panel = await findFrame(page, '[data-testid="composer"]', 60_000);

  await panel.locator('[data-testid="composer"]').fill('Find where the build warning comes from.');
  await panel.locator('[data-testid="composer"]').press('Enter');
  await panel.locator('[data-testid="status"]', { hasText: 'Running' }).waitFor({ timeout: 15_000 });
  await panel.locator('[data-testid="status"]', { hasText: 'Completed' }).waitFor({ timeout: 120_000 });
  assert.ok(
    server!.chatRequests().length >= 19,
    `the model was called over 18 turns (${server!.chatRequests().length})`,
  );
  await panel.getByText(LONG_TASK_ANSWER.slice(0, 40)).first().waitFor({ timeout: 10_000 });

  // Room for the panel: collapse the Tools view, hide the bottom panel, open the Context section.
  await page.locator('.pane-header', { hasText: 'Tools' }).first().click();
  await page.keyboard.press('Control+J');
  const context = panel.locator('details', { has: panel.locator('summary', { hasText: 'Context' }) });
  if ((await context.getAttribute('open')) === null) await context.locator('summary').click();
  const meter = (await panel.locator('[data-testid="meter"]').innerText()).replace(/\s+/g, ' ');
  assert.match(meter, /\d/, `the meter shows numbers: ${meter}`);
  await panel.locator('[data-testid="plot"] canvas').first().waitFor({ timeout: 10_000 });

  // An early run_command output was masked: scroll to it and open its file.
  const masked = panel.locator('[data-testid="open-masked"]');
  await scrollUntil(panel, masked);
  await screenshot('agent-panel-masked');
  await masked.first().click();
  // The stored file opens in an editor: tool-outputs/<session>/<turn>-<tool>.txt
  await page
    .locator('.tabs-container .tab', { hasText: /^\d+-(run_command|grep|read_file|tail|list_dir)\.txt/ })
    .first()
    .waitFor({ timeout: 15_000 });
  await screenshot('agent-panel-open-masked');

  // A run that hangs, stopped by the user.
  const asked = server!.chatRequests().length;
  await panel.locator('[data-testid="composer"]').fill('One more thing.');
  await panel.locator('[data-testid="send"]').click();
  await panel.locator('[data-testid="status"]', { hasText: 'Running' }).waitFor({ timeout: 15_000 });
  // The model got the message and is now streaming; it never finishes.
  await waitFor(() => server!.chatRequests().length > asked, 15_000, 'the hanging call reaches the model');
  assert.equal(await panel.locator('[data-testid="stop"]').isEnabled(), true, 'Stop is enabled while running');
  await panel.locator('[data-testid="stop"]').click();
  await panel.locator('[data-testid="status"]', { hasText: 'Stopped' }).waitFor({ timeout: 15_000 });
  await screenshot('agent-panel-stopped');
}

/** The conversation is virtualized: scroll it up until the locator is rendered. */
async function scrollUntil(frame: Frame, target: ReturnType<Frame['locator']>): Promise<void> {
  const log = frame.locator('[data-testid="conversation"]');
  for (let i = 0; i < 60 && (await target.count()) === 0; i++) {
    await log.evaluate((el) => el.scrollBy(0, -400));
    await frame.page().waitForTimeout(100);
  }
  await target.first().scrollIntoViewIfNeeded();
}
