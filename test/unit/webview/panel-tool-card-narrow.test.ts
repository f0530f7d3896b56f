// Tool cards at 110 px (220 at 200 % zoom) and 150 px with long file paths, a long tool name and a masked
// output: the masked note's words did not wrap ("placeholder" ran past the card's edge, cut, and the
// conversation scrolled sideways). Every line of a card's text stays inside the card.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import type { ChatItem } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const stored = '.context-desk/observations/session-0123456789abcdef/call_abcdefghijklmnopqrstuvwxyz0123456789.txt';
const file = 'packages/very-long-package-name/src/components/nested/SomeExtremelyLongComponentFileName.test.tsx';
const items: ChatItem[] = [
  { kind: 'user', id: 'u1', text: 'Read it', at: 1 },
  {
    kind: 'assistant',
    id: 'a1',
    turn: 1,
    streaming: false,
    text: 'Done.',
    tools: [
      {
        callId: 'c1',
        tool: 'read_file',
        title: file,
        arguments: JSON.stringify({ path: file }),
        state: 'ok',
        preview: 'x',
        storedAt: stored,
        outputLines: 400,
      },
      {
        callId: 'c2',
        tool: 'run_command_with_a_rather_long_name',
        arguments: '{}',
        state: 'ok',
        masked: true,
        maskedLines: 400,
        placeholder: `[observation masked: 400 lines stored at ${stored}]`,
      },
      {
        callId: 'c3',
        tool: 'read_file',
        arguments: '{}',
        state: 'ok',
        masked: true,
        maskedLines: 400,
        storedAt: stored,
        placeholder: `[observation masked: 400 lines stored at ${stored}]`,
      },
    ],
  },
];

test("a tool card's text stays inside the card at 110 and 150 pixels", async () => {
  for (const width of [110, 150]) {
    const page = await panel.open(emptyChat({ items }), { width, height: 900 });
    await page.locator('cd-app cd-tool-card').first().waitFor();
    const past = await page.evaluate(`(() => {
      const conv = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot;
      const out = [];
      for (const card of conv.querySelectorAll('cd-tool-card')) {
        const edge = card.getBoundingClientRect().right;
        const walker = document.createTreeWalker(card.shadowRoot, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          if (!t.textContent.trim() || !t.parentElement.checkVisibility()) continue;
          const range = document.createRange();
          range.selectNodeContents(t);
          for (const r of range.getClientRects())
            if (r.right > edge + 0.5) out.push(t.textContent.trim().slice(0, 40));
        }
      }
      return [...new Set(out)];
    })()`);
    assert.deepEqual(past, [], `${width} px: text past the card's edge`);
    const sideways = await page.evaluate(
      `(() => { const c = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation'); return c.scrollWidth > c.clientWidth + 1; })()`,
    );
    assert.equal(sideways, false, `${width} px: the conversation scrolls sideways`);
    await page.close();
  }
});
