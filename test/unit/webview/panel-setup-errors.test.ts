// The setup form with a screen reader and the keyboard only: Save refused for a field ("Choose a
// model…") said so in a line below the buttons, tied to no field, and the focus stayed on Save; the
// provider's description and where the key is kept were not said with their fields. Now the field the
// host names is marked invalid, described by the message, and takes the focus; the hints describe theirs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, startPanel, type Panel } from './panel-harness';
import { SETUP_FORM } from '../../../scripts/lib/panel-fixture';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

/** The form's controls as Chromium's accessibility tree gives them: role, name, description, invalid. */
async function controls(page: Page): Promise<string[][]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: {
      role?: { value: string };
      name?: { value: string };
      description?: { value: string };
      properties?: { name: string; value: { value: unknown } }[];
    }[];
  };
  await cdp.detach();
  return nodes
    .filter((n) => ['combobox', 'textbox', 'spinbutton'].includes(n.role?.value ?? ''))
    .map((n) => [
      n.name?.value ?? '',
      n.description?.value ?? '',
      String(n.properties?.find((p) => p.name === 'invalid')?.value.value ?? 'false'),
    ]);
}

async function openSetup(page: Page, save: unknown): Promise<void> {
  await page.evaluate(
    ([form, result]) =>
      ((window as unknown as { __results: unknown }).__results = { getSetup: form, saveSetup: result }),
    [SETUP_FORM, save] as const,
  );
  await page.locator('cd-app [data-testid="open-setup"]').click();
  await page.locator('cd-app [data-testid="setup-save"]').waitFor();
}

test('the setup form describes its fields with their hints', async () => {
  const page = await panel.open(emptyChat({ setup: { provider: 'openai-compatible', ready: false } }));
  await openSetup(page, { ok: true });
  const byName = new Map((await controls(page)).map(([name, description]) => [name, description]));
  assert.equal(byName.get('Provider'), SETUP_FORM.providers[0]!.description);
  assert.match(byName.get('API key (if the endpoint needs one)') ?? '', /secret storage/);
  await page.close();
});

test('Save refused for a field marks it invalid, describes it with the reason and puts the focus there', async () => {
  const page = await panel.open(emptyChat({ setup: { provider: 'openai-compatible', ready: false } }));
  const message = 'Choose a model (Test connection lists what the endpoint offers).';
  await openSetup(page, { ok: false, message, field: 'model' });
  await page.locator('cd-app [data-testid="setup-model"]').fill('');
  await page.locator('cd-app [data-testid="setup-save"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('cd-app [data-testid="setup-result"]').waitFor();
  await page.waitForFunction(`${FOCUSED} === 'setup-model'`);
  const model = (await controls(page)).find(([name]) => name === 'Model');
  assert.deepEqual(model, ['Model', message, 'true']);
  // Typing in the field clears the mark (the message stays until the next Save).
  await page.keyboard.type('qwen2.5-coder:14b');
  assert.equal((await controls(page)).find(([name]) => name === 'Model')?.[2], 'false');
  await page.close();
});
