// A newcomer with no model endpoint: the empty state keeps a message typed too early and offers the demo
// model; the demo's tour stores a long output, masks it, and "open" opens it. The setup form's Test
// connection fails once, clearly, against a closed port (naming the URL) and succeeds against the
// scripted server; History shows the tour titled by its instruction with its cost, and resuming it keeps
// the masked markers and open links.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import { THEMES, useTheme } from './themes';
import { findFrame, openAgentPanel, runCommand, scrollUntil, type E2eContext } from './context';

export const name = 'Newcomer: demo model from the empty state, setup form with Test connection, History and resume';

let server: ScriptedServer | undefined;

export async function setup(): Promise<() => Promise<void>> {
  server = await startScriptedModelServer([{ reply: { text: 'never needed' } }]);
  return async () => server?.close();
}

/** A loopback port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const titleAction = (page: Page, label: string): ReturnType<Page['locator']> =>
  page.locator(`.pane-header .action-label[aria-label^="${label}"]`).first();

export async function run({ page, workspace, screenshot }: E2eContext): Promise<void> {
  const panel = await openAgentPanel(page, '[data-testid="welcome"]');
  await useTheme(page, workspace, THEMES[0]!); // dark, as the README shows it
  await panel.locator('[data-testid="try-demo"]').waitFor();
  await screenshot('newcomer-empty-state');

  // A message typed before any model is set up stays in the composer, with the reason.
  const composer = panel.locator('[data-testid="composer"]');
  await composer.fill('What does this project do?');
  await composer.press('Enter');
  await panel.locator('[data-testid="send-refused"]').waitFor({ timeout: 10_000 });
  assert.equal(await composer.inputValue(), 'What does this project do?');
  assert.equal(await panel.locator('[data-testid="conversation"] .row').count(), 0, 'nothing piles up in the chat');

  // The demo model: one click, the tour runs, a long output is stored and then masked.
  await panel.locator('[data-testid="try-demo"]').click();
  await panel.locator('[data-testid="status"]', { hasText: 'Running' }).waitFor({ timeout: 30_000 });
  await panel.locator('[data-testid="status"]', { hasText: 'Completed' }).waitFor({ timeout: 120_000 });
  await panel.getByText('Demo complete.').first().waitFor();
  // The build log's card (short outputs are masked too, each with its file).
  const buildCard = panel.locator('cd-tool-card[masked]', { has: panel.locator('.name', { hasText: /^demo_build$/ }) });
  const maskedOpen = buildCard.locator('[data-testid="open-masked"]');
  await scrollUntil(panel, maskedOpen);
  const card = buildCard.first();
  assert.match(await card.locator('[data-testid="output-summary"]').innerText(), /full output 1,500 lines, stored/);
  assert.match(
    await card.locator('[data-testid="masked"]').innerText(),
    /^Masked: the model now sees a one-line placeholder/,
  );
  await screenshot('newcomer-demo-masked');
  await maskedOpen.first().click();
  await page
    .locator('.tabs-container .tab', { hasText: /^\d+-demo_build\.txt/ })
    .first()
    .waitFor({ timeout: 15_000 });
  assert.match(
    (await panel.locator('[data-testid="meter-masked"]').innerText()).trim(),
    /^\d+ masked$/,
    'the meter counts the masked observations',
  );

  // The setup form (view title gear): a closed port fails once, naming the URL; the scripted server works.
  await titleAction(page, 'Set Up a Model').click();
  const form = panel.locator('[data-testid="setup"]');
  await form.waitFor({ timeout: 10_000 });
  await panel.locator('[data-testid="setup-provider"]').selectOption('openai-compatible');
  const port = await closedPort();
  const closedUrl = `http://127.0.0.1:${port}/v1`;
  await panel.locator('[data-testid="setup-base-url"]').fill(closedUrl);
  await panel.locator('[data-testid="setup-test"]').click();
  const result = panel.locator('[data-testid="setup-result"]');
  await result.filter({ hasText: 'Could not connect' }).waitFor({ timeout: 20_000 });
  assert.equal(await result.count(), 1, 'one error line');
  assert.equal(
    (await result.innerText()).trim(),
    `Could not connect to ${closedUrl}/models: connection refused: nothing is listening there. Start the server, or correct the base URL.`,
  );
  await screenshot('setup-test-connection-refused');
  await panel.locator('[data-testid="setup-base-url"]').fill(server!.baseURL);
  await panel.locator('[data-testid="setup-test"]').click();
  await result.filter({ hasText: 'Connected to' }).waitFor({ timeout: 20_000 });
  assert.match(
    await result.innerText(),
    new RegExp(`Connected to ${escape(server!.baseURL)}/models: 1 model listed\\.`),
  );
  assert.equal(
    await panel.locator('[data-testid="setup-model"]').inputValue(),
    'scripted',
    'the listed model is taken',
  );
  await screenshot('setup-test-connection-ok');
  await panel.locator('[data-testid="setup-save"]').click();
  await panel.locator('[data-testid="model-picker"]').waitFor({ timeout: 10_000 });
  assert.match(await panel.locator('[data-testid="model-picker"]').inputValue(), /scripted/);

  // History: the tour titled by its instruction, with turns, calls and cost; resuming keeps the links.
  await titleAction(page, 'New Chat').click();
  await panel.locator('[data-testid="welcome"]').waitFor({ timeout: 10_000 });
  await titleAction(page, 'Show History').click();
  const item = panel.locator('[data-testid="history-item"]', {
    hasText: 'Show me how Context Desk keeps the context small.',
  });
  await item.first().waitFor({ timeout: 10_000 });
  const meta = await item.first().locator('[data-testid="history-meta"]').innerText();
  assert.match(meta, /^\d+ turns · \d+ calls · [\d.]+k? units · /, meta);
  await screenshot('history');
  await item.first().click();
  await panel.locator('[data-testid="conversation"]').waitFor({ timeout: 10_000 });
  await panel
    .getByText(/^Resumed from /)
    .first()
    .waitFor({ timeout: 10_000 });
  const resumedOpen = buildCard.locator('[data-testid="open-masked"]');
  await scrollUntil(panel, resumedOpen);
  await screenshot('history-resumed');
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
  await resumedOpen.first().click();
  await page
    .locator('.tabs-container .tab', { hasText: /^\d+-demo_build\.txt/ })
    .first()
    .waitFor({ timeout: 15_000 });

  // The panel answers the host (the ping command), and says nothing about protocols in its footer.
  await runCommand(page, 'Context Desk: Ping Agent Panel');
  await page.locator('.notifications-toasts', { hasText: 'the Agent panel answered' }).waitFor({ timeout: 15_000 });
  assert.equal(await panel.getByText(/protocol \d/).count(), 0);

  // The installed VSIX's details page shows the README's screenshot (inline in the packed README).
  await page.locator('.activitybar [aria-label^="Extensions"]').first().click();
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Context Desk' }).first().click({ timeout: 30_000 });
  const details = await findFrame(page, 'img[src^="data:image/png"]', 30_000);
  const image = details.locator('img[src^="data:image/png"]').first();
  await image.scrollIntoViewIfNeeded();
  const width = Number(
    await image.evaluate((img) => img.getAttribute('src') && (img as unknown as { naturalWidth: number }).naturalWidth),
  );
  assert.ok(width > 0, 'the README image renders from the VSIX');
  await screenshot('vsix-details-readme');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
