// The Agent panel's message box from the keyboard, in a real headless Chromium: Escape stops a run
// (and does nothing when none runs), and a strategy or model the host refuses says why next to the box.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import { STILL_WORKING } from '../../../src/extension/agent/afterRun';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const stops = "window.__posted.filter((m) => m.type === 'request' && m.method === 'stop').length";

test('Escape in the message box stops a run, and only a run', async () => {
  const idle = await panel.open(emptyChat());
  const idleBox = idle.locator('cd-app [data-testid="composer"]');
  await idleBox.press('Escape');
  // Keys are handled in order: once the next one has typed, Escape's handler has run.
  await idleBox.press('x');
  assert.equal(await idleBox.inputValue(), 'x');
  assert.equal(await idle.evaluate(stops), 0, 'Escape asked to stop while nothing ran');
  await idle.close();
  const page = await panel.open(emptyChat({ status: 'running' }));
  const box = page.locator('cd-app [data-testid="composer"]');
  assert.match(String(await box.getAttribute('placeholder')), /Escape/);
  await box.fill('half a thought');
  await box.press('Escape');
  await page.waitForFunction(`${stops} === 1`, null, { timeout: 2000 });
  assert.equal(await box.inputValue(), 'half a thought', 'Escape dropped the draft');
  assert.match(String(await box.getAttribute('placeholder')), /Stopping/);
  await page.close();
});

const sends = "window.__posted.filter((m) => m.type === 'request' && m.method === 'send').map((m) => m.params.text)";

const answerSend = (page: Page, answer: { accepted: boolean; reason?: string }): Promise<unknown> =>
  page.evaluate((send) => Object.assign(window, { __results: { send } }), answer);

test('a message sent after Stop, while the run winds down, goes to the host (which sends it once it has ended)', async () => {
  const page = await panel.open(emptyChat({ status: 'running' }));
  const box = page.locator('cd-app [data-testid="composer"]');
  // The host refuses while the run still works: the text stays, with the host's reason.
  await answerSend(page, { accepted: false, reason: STILL_WORKING });
  await box.fill('not yet');
  await box.press('Enter');
  await page.locator('cd-app [data-testid="send-refused"]').waitFor({ timeout: 2000 });
  assert.match(await page.locator('cd-app [data-testid="send-refused"]').innerText(), /still working/);
  assert.equal(await box.inputValue(), 'not yet');
  await box.press('Escape');
  await page.waitForFunction(`${stops} === 1`, null, { timeout: 2000 });
  await answerSend(page, { accepted: true });
  await box.fill('do this instead');
  await box.press('Enter');
  await page.waitForFunction(`${sends}.length === 2`, null, { timeout: 2000 });
  assert.deepEqual(await page.evaluate(sends), ['not yet', 'do this instead']);
  await page.waitForFunction(
    `document.querySelector('cd-app').shadowRoot.querySelector('cd-composer').shadowRoot.querySelector('textarea').value === ''`,
    null,
    { timeout: 2000 },
  );
  await page.close();
});

test('after Stop Agent from outside the panel (command, view title), Enter hands the message to the host too', async () => {
  // The panel's own Stop was not pressed: only the host knows the run is stopping, and it takes the message.
  const page = await panel.open(emptyChat({ status: 'running' }));
  const box = page.locator('cd-app [data-testid="composer"]');
  await box.fill('then do this');
  await box.press('Enter');
  await page.waitForFunction(`${sends}.length === 1`, null, { timeout: 2000 });
  assert.deepEqual(await page.evaluate(sends), ['then do this']);
  await page.waitForFunction(
    `document.querySelector('cd-app').shadowRoot.querySelector('cd-composer').shadowRoot.querySelector('textarea').value === ''`,
    null,
    { timeout: 2000 },
  );
  assert.equal(await page.locator('cd-app [data-testid="send-refused"]').count(), 0);
  await page.close();
});

test('a strategy or model the host refuses goes back and says why', async () => {
  const page = await panel.open(emptyChat({ strategies: ['masking', 'raw'], models: ['gpt-4.1-mini', 'gpt-4.1'] }));
  await page.evaluate(() =>
    Object.assign(window, {
      __errors: {
        setStrategy: 'The workspace settings cannot be written (read-only)',
        setModel: 'The model gpt-4.1 is not offered by this endpoint',
      },
    }),
  );
  const strategy = page.locator('cd-app [data-testid="strategy-picker"]');
  await strategy.selectOption('raw');
  await page.locator('cd-app [data-testid="send-refused"]').waitFor({ timeout: 2000 });
  assert.match(await page.locator('cd-app [data-testid="send-refused"]').innerText(), /read-only/);
  assert.equal(await strategy.inputValue(), 'masking');
  const model = page.locator('cd-app [data-testid="model-picker"]');
  await model.selectOption('gpt-4.1');
  await page.waitForFunction(
    `/not offered/.test(document.querySelector('cd-app').shadowRoot.querySelector('cd-composer').shadowRoot.querySelector('[data-testid="send-refused"]')?.textContent ?? '')`,
    null,
    { timeout: 2000 },
  );
  assert.equal(await model.inputValue(), 'gpt-4.1-mini');
  await page.close();
});

const picks = `window.__posted.filter((m) => m.type === 'request' && ['setModel', 'setStrategy', 'getSetup'].includes(m.method)).map((m) => m.method + ' ' + (m.params.model ?? m.params.strategy ?? ''))`;

test('arrows in a picker pass over models and strategies; Enter or leaving takes one, Escape puts back the one in use', async () => {
  const page = await panel.open(
    emptyChat({ strategies: ['masking', 'raw', 'summary'], models: ['gpt-4.1-mini', 'gpt-4.1', 'o3'] }),
  );
  const model = page.locator('cd-app [data-testid="model-picker"]');
  // Two steps down, then Enter: one model taken, the one shown.
  await model.focus();
  await model.press('ArrowDown');
  await model.press('ArrowDown');
  assert.deepEqual(await page.evaluate(picks), [], 'a model was taken at each arrow');
  await model.press('Enter');
  assert.deepEqual(await page.evaluate(picks), ['setModel o3']);
  // One step past the last model is "Set up a model…": leaving the picker there stays in the chat.
  await model.press('ArrowDown');
  assert.equal(await model.inputValue(), '__setup__');
  await model.press('Tab');
  assert.equal(await page.locator('cd-app cd-setup').count(), 0, 'passing over the setup option opened setup');
  // Back to the model in use (the stand-in host never switches it).
  assert.equal(await model.inputValue(), 'gpt-4.1-mini');
  // Escape puts back the strategy in use; a step taken and then the focus moved away takes it.
  const strategy = page.locator('cd-app [data-testid="strategy-picker"]');
  await strategy.focus();
  await strategy.press('ArrowDown');
  await strategy.press('Escape');
  assert.equal(await strategy.inputValue(), 'masking');
  await strategy.press('ArrowDown');
  await strategy.press('Shift+Tab');
  assert.deepEqual(await page.evaluate(picks), ['setModel o3', 'setStrategy raw']);
  // Enter on "Set up a model…" opens the setup.
  await model.focus();
  await model.press('End');
  await model.press('Enter');
  await page.locator('cd-app cd-setup').waitFor({ timeout: 2000 });
  await page.close();
});

test('arrows in the setup form’s provider list keep what was typed until a provider is taken', async () => {
  const { SETUP_FORM } = await import('../../../scripts/lib/panel-fixture');
  const page = await panel.open(emptyChat());
  await page.evaluate((r) => Object.assign(window, { __results: r }), { getSetup: SETUP_FORM });
  await page.locator('cd-app [data-testid="model-picker"]').selectOption('__setup__');
  const base = page.locator('cd-app [data-testid="setup-base-url"]');
  const model = page.locator('cd-app [data-testid="setup-model"]');
  await base.fill('http://10.0.0.5:8000/v1');
  await model.fill('my-model');
  const provider = page.locator('cd-app [data-testid="setup-provider"]');
  // Down to the demo model and Escape: the fields stayed all along, and are still what was typed.
  await provider.focus();
  await provider.press('ArrowDown');
  assert.equal(await provider.inputValue(), 'demo');
  assert.equal(await base.inputValue(), 'http://10.0.0.5:8000/v1', 'passing over a provider swapped the fields');
  await provider.press('Escape');
  assert.equal(await provider.inputValue(), 'openai-compatible');
  assert.equal(await model.inputValue(), 'my-model');
  // Enter takes the provider passed over: the demo model has no base URL.
  await provider.press('ArrowDown');
  await provider.press('Enter');
  await base.waitFor({ state: 'detached', timeout: 2000 });
  await page.close();
});
