// The Agent panel's message box from the keyboard, in a real headless Chromium: Escape stops a run
// (and does nothing when none runs), and a strategy or model the host refuses says why next to the box.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

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
  await box.fill('half a thought');
  await box.press('Escape');
  await page.waitForFunction(`${stops} === 1`, null, { timeout: 2000 });
  assert.equal(await box.inputValue(), 'half a thought', 'Escape dropped the draft');
  assert.match(String(await box.getAttribute('placeholder')), /Escape/);
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
