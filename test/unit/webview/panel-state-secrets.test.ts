// What the panel persists (the webview's state, which VS Code writes to disk as it is) in a real
// headless Chromium: a disclosure is keyed by the provider's call id, and a provider may put anything
// there (a misbehaving proxy echoes text, a secret included), so the state keeps a hash of it, never
// the id itself; the disclosure still comes back open after the view was hidden.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, hideAndShow, startPanel, type Panel } from './panel-harness';
import type { ChatSnapshot } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const SECRET = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
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
          callId: `call_${SECRET}`,
          tool: 'run_command',
          arguments: JSON.stringify({ command: 'npm test' }),
          state: 'ok',
          preview: 'ok',
        },
      ],
    },
  ],
});

const CARD = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot.querySelector('cd-tool-card').shadowRoot`;

test('a call id is not written to the webview state; its disclosure still comes back open', async () => {
  const page = await panel.open(chat);
  await page.locator('cd-app cd-tool-card details.args summary').click();
  await page.waitForFunction(`(sessionStorage.getItem('cd-state') ?? '').includes('chosen')`);
  const state = String(await page.evaluate(`sessionStorage.getItem('cd-state')`));
  assert.ok(!state.includes(SECRET.slice(4, 16)), `the webview state holds the call id: ${state}`);
  await hideAndShow(page, chat);
  assert.equal(await page.evaluate(`${CARD}.querySelector('details.args').open`), true, 'the arguments closed again');
  await page.close();
});

test('call ids an earlier panel left in the webview state are written over as soon as the panel starts', async () => {
  const page = await panel.open(chat);
  await page.evaluate(
    (s) => sessionStorage.setItem('cd-state', s),
    JSON.stringify({ view: 'chat', disclosures: { session: 's1', chosen: [[`call_${SECRET}:args`, true]] } }),
  );
  await hideAndShow(page, chat);
  await page.waitForFunction(`!(sessionStorage.getItem('cd-state') ?? '').includes(${JSON.stringify(SECRET)})`);
  await page.close();
});
