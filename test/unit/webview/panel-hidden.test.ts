// The Agent panel when its view is hidden and shown again, in a real headless Chromium: VS Code discards
// a hidden webview's page, so what the user left (the setup form's unsaved fields, open disclosures of
// tool calls, the error line) must come back from the webview's state or the host's memory; a key typed
// into the form never goes into the webview's state (VS Code writes it to disk as it is).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, hideAndShow, startPanel, type Panel } from './panel-harness';
import { SETUP_FORM } from '../../../scripts/lib/panel-fixture';
import type { ChatSnapshot } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const chat: ChatSnapshot = emptyChat({
  items: [
    { kind: 'user', id: 'u1', text: 'Run the tests', at: 1 },
    {
      kind: 'assistant',
      id: 'a1',
      turn: 1,
      streaming: false,
      text: 'Running them.',
      tools: [
        {
          callId: 'c1',
          tool: 'run_command',
          arguments: JSON.stringify({ command: 'npm test' }),
          state: 'ok',
          preview: 'ok',
          storedAt: '.context-desk/tool-outputs/s1/0001-run_command.txt',
          masked: true,
          maskedLines: 240,
          placeholder:
            '[output of run_command masked: 240 lines in .context-desk/tool-outputs/s1/0001-run_command.txt]',
        },
      ],
    },
  ],
});

const CARD = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot.querySelector('cd-tool-card').shadowRoot`;
const openOf = (sel: string): string => `${CARD}.querySelector(${JSON.stringify(sel)}).open`;

test('hiding the view keeps the setup form as typed, the open disclosures and the error line; the key stays off the state', async () => {
  const page = await panel.open(chat);
  await page.evaluate(
    ([form]) =>
      Object.assign(window, { __results: { getSetup: form }, __errors: { openStored: 'The stored output is gone' } }),
    [SETUP_FORM] as const,
  );
  // Disclosures: the arguments and what the model sees of the masked output, opened.
  await page.locator('cd-app cd-tool-card details.args summary').click();
  await page.locator('cd-app [data-testid="masked-placeholder"] summary').click();
  await page.locator('cd-app [data-testid="open-masked"]').click();
  await page.locator('cd-app [data-testid="panel-error"]').waitFor();

  await hideAndShow(page, chat);
  assert.equal(await page.evaluate(openOf('details.args')), true, 'the arguments closed again');
  assert.equal(await page.evaluate(openOf('[data-testid="masked-placeholder"]')), true, 'the placeholder closed again');
  assert.match(await page.locator('cd-app [data-testid="panel-error"]').innerText(), /The stored output is gone/);

  // The setup form, typed into and not saved.
  const answers = { getSetup: SETUP_FORM };
  await page.evaluate((r) => Object.assign(window, { __results: r }), answers);
  await page.locator('cd-app [data-testid="model-picker"]').selectOption('__setup__');
  await page.locator('cd-app [data-testid="setup-base-url"]').fill('http://10.0.0.5:8000/v1');
  await page.locator('cd-app [data-testid="setup-key"]').fill('sk-typed-not-saved-1234');
  await page.locator('cd-app [data-testid="setup-model"]').fill('my-model');
  await page.locator('cd-app [data-testid="setup-window"]').fill('32768');
  await hideAndShow(page, chat, answers);
  await page.locator('cd-app [data-testid="setup-base-url"]').waitFor();
  assert.equal(await page.locator('cd-app [data-testid="setup-base-url"]').inputValue(), 'http://10.0.0.5:8000/v1');
  assert.equal(await page.locator('cd-app [data-testid="setup-key"]').inputValue(), 'sk-typed-not-saved-1234');
  assert.equal(await page.locator('cd-app [data-testid="setup-model"]').inputValue(), 'my-model');
  assert.equal(await page.locator('cd-app [data-testid="setup-window"]').inputValue(), '32768');
  const state = String(await page.evaluate(`sessionStorage.getItem('cd-state')`));
  assert.doesNotMatch(
    state,
    /sk-typed|10\.0\.0\.5|stored output is gone/,
    `the webview state holds typed text: ${state}`,
  );

  // Leaving the form drops what was typed: it opens again from the settings.
  await page.locator('cd-app cd-setup button.link').click();
  await hideAndShow(page, chat, answers);
  await page.locator('cd-app [data-testid="model-picker"]').selectOption('__setup__');
  await page.locator('cd-app [data-testid="setup-base-url"]').waitFor();
  assert.equal(await page.locator('cd-app [data-testid="setup-base-url"]').inputValue(), 'http://127.0.0.1:11434/v1');
  assert.equal(await page.locator('cd-app [data-testid="setup-key"]').inputValue(), '');
  await page.close();
});

test('a dismissed error does not come back, and another chat starts with its disclosures closed', async () => {
  const page = await panel.open(chat);
  await page.evaluate(() => Object.assign(window, { __errors: { openStored: 'The stored output is gone' } }));
  await page.locator('cd-app cd-tool-card details.args summary').click();
  await page.locator('cd-app [data-testid="open-masked"]').click();
  await page.locator('cd-app [data-testid="panel-error"] button.dismiss').click();
  await hideAndShow(page, chat);
  assert.equal(await page.locator('cd-app [data-testid="panel-error"]').count(), 0, 'a dismissed error came back');
  assert.equal(await page.evaluate(openOf('details.args')), true);
  await hideAndShow(page, { ...chat, sessionId: 's2' });
  assert.equal(await page.evaluate(openOf('details.args')), false, "another chat's card opened");
  await page.close();
});
