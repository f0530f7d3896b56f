// The Agent panel in a real headless Chromium at sidebar widths: hostile or merely long model output
// never widens it, an approval shows the characters that would make a command read differently from
// what runs, the message box stays in view under a tall approval and the open meter, and the focus
// comes back to the message box after Send or an answered approval. The page is the webview's own
// markup and bundle with a stand-in for VS Code's webview API (panel-harness.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ApprovalRequest, ChatSnapshot } from '../../../src/protocol/chat';
import { FOCUSED, patch, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const LONG_URL = `https://api.example.com/v1/${'segment/'.repeat(30)}endpoint?query=${'x'.repeat(120)}`;
const WIDE_IMAGE = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="40"><rect width="2000" height="40" fill="red"/></svg>').toString('base64')}`;

function chat(approval?: ApprovalRequest): ChatSnapshot {
  return {
    sessionId: 's1',
    status: 'idle',
    strategy: 'masking',
    strategies: ['masking', 'raw'],
    model: 'openai-compatible/gpt-4.1-mini',
    models: ['gpt-4.1-mini'],
    setup: { provider: 'openai-compatible', ready: true, endpoint: 'http://127.0.0.1:11434/v1' },
    items: [
      { kind: 'user', id: 'u1', text: `Look at ${'/very/long/path'.repeat(20)}/file.ts`, at: 1 },
      {
        kind: 'assistant',
        id: 'a1',
        turn: 1,
        streaming: false,
        text: [
          `See ${LONG_URL} and \`${'averyveryverylongidentifier'.repeat(6)}\`.`,
          '',
          '| Before | After | Notes about the incremental change |',
          '| --- | --- | --- |',
          '| 1200 | 800 | incremental builds skip unchanged packages entirely |',
          '',
          `![chart](${WIDE_IMAGE})`,
          '',
          '```',
          `const x = "${'y'.repeat(300)}";`,
          '```',
        ].join('\n'),
        tools: [
          {
            callId: 'c1',
            tool: 'mcp__github__create_pull_request_review_comment_with_suggestion',
            arguments: JSON.stringify({ body: 'z'.repeat(400) }),
            state: 'ok',
            durationMs: 120,
            preview: 'q'.repeat(500),
          },
          {
            callId: 'c2',
            tool: 'run_command',
            arguments: JSON.stringify({ command: 'npm test' }),
            state: 'ok',
            preview: 'ok',
            storedAt: '.context-desk/tool-outputs/s1/0002-run_command.txt',
            masked: true,
            maskedLines: 240,
            placeholder: `[output of run_command masked: 240 lines in ${'.context-desk/tool-outputs/s1/'.repeat(4)}0002-run_command.txt]`,
          },
        ],
      },
      { kind: 'notice', id: 'n1', level: 'error', text: `The request to ${LONG_URL} failed: ECONNREFUSED` },
    ],
    meter: {
      tokensInWindow: 41_230,
      contextWindow: 128_000,
      cachedTokens: 30_100,
      rawHistoryTokens: 90_000,
      costUnits: 512_000,
      costUsd: 0.2048,
      calls: 3,
      maskedObservations: 1,
      estimated: false,
      budget: { state: 'warning', usedPercent: 85, limit: 600_000 },
    },
    series: [1, 2, 3].map((call) => ({ call, raw: call * 30_000, sent: call * 12_000, cached: call * 5_000 })),
    pastSessions: [],
    ...(approval ? { approval } : {}),
  } as ChatSnapshot;
}

async function open(width: number, height: number, snapshot: ChatSnapshot): Promise<Page> {
  const page = await panel.open(snapshot, { width, height });
  // The view follows the newest item: it is laid out once the last one (the error notice) is in the DOM.
  await page.locator('cd-app .item.notice').waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page;
}

/** Where the focus is once it settles on the message box, or (after 2 s) wherever it is. */
async function focusAfter(page: Page): Promise<string> {
  await page.waitForFunction(`${FOCUSED} === 'composer'`, null, { timeout: 2000 }).catch(() => undefined);
  return page.evaluate(FOCUSED) as Promise<string>;
}

test('long and hostile output stays inside a 250 and a 300 pixel panel', async () => {
  for (const width of [250, 300]) {
    const page = await open(width, 700, chat());
    const widths = (await page.evaluate(`(() => {
      const conv = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot;
      const s = conv.querySelector('.scroller');
      const card = conv.querySelector('cd-tool-card').shadowRoot.querySelector('.card');
      return { scroll: s.scrollWidth, client: s.clientWidth, page: document.documentElement.scrollWidth, card: card.scrollWidth, cardClient: card.clientWidth };
    })()`)) as Record<string, number>;
    assert.ok(
      widths.scroll! <= widths.client! + 1,
      `${width} px: the conversation scrolls sideways (${JSON.stringify(widths)})`,
    );
    assert.ok(widths.page! <= width, `${width} px: the page is wider than the panel (${JSON.stringify(widths)})`);
    assert.ok(
      widths.card! <= widths.cardClient! + 1,
      `${width} px: the tool card overflows (${JSON.stringify(widths)})`,
    );
    // What the model sees of a masked output is reachable by keyboard, not only in a tooltip.
    const disclosure = page.locator('cd-app [data-testid="masked-placeholder"] summary');
    await disclosure.focus();
    await disclosure.press('Enter');
    assert.match(
      await page.locator('cd-app [data-testid="masked-placeholder"]').innerText(),
      /output of run_command masked: 240 lines/,
    );
    // The budget at 85 % is the number that asks for action: never the one the meter line cuts off.
    const line = (await page.locator('cd-app [data-testid="meter-toggle"]').boundingBox())!;
    const budget = (await page.locator('cd-app [data-testid="meter-budget"]').boundingBox())!;
    assert.ok(
      budget.x >= line.x && budget.x + budget.width <= line.x + line.width,
      `${width} px: the budget is cut off`,
    );
    await page.close();
  }
});

test('a stored output names its file on the card, wrapped inside a 300 pixel panel, and opens it', async () => {
  const base = chat();
  const item = base.items[1] as Extract<ChatSnapshot['items'][number], { kind: 'assistant' }>;
  const stored = `.context-desk/tool-outputs/${'session-2026-11-27T05-10-48-'.repeat(2)}s1/0001-read_file.txt`;
  item.tools = [{ ...item.tools[0]!, storedAt: stored, outputLines: 5_000 }, item.tools[1]!];
  const page = await open(300, 700, base);
  const cards = page.locator('cd-app cd-tool-card');
  // Said in the card's text (a tooltip is never seen from the keyboard), not only in a title.
  assert.match(
    (await cards.nth(0).locator('.card').innerText()).replace(/\s+/g, ''),
    new RegExp(`Fulloutput:${stored.replace(/\./g, '\\.')}`),
  );
  assert.match(
    (await cards.nth(1).locator('.card').innerText()).replace(/\s+/g, ' '),
    /the full text is in \.context-desk\/tool-outputs\/s1\/0002-run_command\.txt/,
  );
  const wide = (await page.evaluate(
    `[...document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot.querySelectorAll('cd-tool-card')].map((c) => { const card = c.shadowRoot.querySelector('.card'); return card.scrollWidth - card.clientWidth; })`,
  )) as number[];
  assert.deepEqual(wide, [0, 0], 'a card is wider than the panel');
  await page.locator('cd-app [data-testid="open-full"]').click();
  await page.locator('cd-app [data-testid="open-masked"]').click();
  assert.deepEqual(
    await page.evaluate(`window.__posted.filter((m) => m.method === 'openStored').map((m) => m.params.path)`),
    [stored, '.context-desk/tool-outputs/s1/0002-run_command.txt'],
  );
  await page.close();
});

test('an approval shows bidi overrides and hidden characters as \\u{…}, with a warning', async () => {
  const page = await open(
    300,
    700,
    chat({
      id: 'ap1',
      kind: 'command',
      title: 'Run this command?',
      detail: 'echo "cleaning up" \u202E; ~/ fr- mr\u202C # only echoes',
    }),
  );
  const text = (await page.locator('cd-app [data-testid="approval"]').innerText()).replace(/\s+/g, ' ');
  assert.match(text, /echo "cleaning up" \\u\{202e\}; ~\/ fr- mr\\u\{202c\} # only echoes/);
  assert.doesNotMatch(text, /[\u202A-\u202E\u2066-\u2069]/);
  assert.match(
    await page.locator('cd-app [data-testid="approval-hidden"]').innerText(),
    /2 invisible or text-reordering characters/,
  );
  await page.close();
});

test('an MCP approval with a long tool name wraps its question and its buttons inside a 300 pixel panel', async () => {
  const title = 'github › create_pull_request_review_comment_with_suggestion';
  const page = await open(
    300,
    700,
    chat({
      id: 'ap1',
      kind: 'mcp',
      title: `Call ${title}?`,
      detail: '{}',
      mcp: { server: 'github', tool: title.slice(9), arguments: '{}', readOnlyHint: false },
      alwaysLabel: `Always allow ${title} in this workspace`,
    }),
  );
  // Each part's box inside the prompt's, and no label cut inside its own box (a button clips its label).
  const cut = (await page.evaluate(`(() => {
    const root = document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot;
    const box = root.querySelector('.box').getBoundingClientRect();
    const out = [];
    for (const el of root.querySelectorAll('.title, vscode-button')) {
      const r = el.getBoundingClientRect();
      const inner = el.shadowRoot ? el.shadowRoot.querySelector('.base') : el;
      if (r.right > box.right + 0.5 || inner.scrollWidth > inner.clientWidth + 1) out.push(el.textContent.trim());
    }
    return out;
  })()`)) as string[];
  assert.deepEqual(cut, []);
  assert.match(
    await page.locator('cd-app [data-testid="always"]').innerText(),
    /create_pull_request_review_comment_with_suggestion in this workspace/,
  );
  await page.close();
});

test("a notice's action button wraps its label inside a 220 and a 300 pixel panel", async () => {
  const label = 'Open the setup form and choose another provider for this workspace';
  const snapshot = chat();
  snapshot.items = snapshot.items.map((i) =>
    i.kind === 'notice' ? { ...i, action: { label, action: 'configure' } } : i,
  );
  for (const width of [220, 300]) {
    const page = await open(width, 700, snapshot);
    // The button inside its notice, and its label not cut inside the button's own box (which clips it).
    const cut = (await page.evaluate(`(() => {
      const conv = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot;
      const notice = [...conv.querySelectorAll('.notice')].pop();
      const box = notice.getBoundingClientRect();
      const button = notice.querySelector('vscode-button');
      const r = button.getBoundingClientRect();
      const inner = button.shadowRoot.querySelector('.base');
      return r.right > box.right + 0.5 || inner.scrollWidth > inner.clientWidth + 1
        ? Math.round(r.right) + ' > ' + Math.round(box.right) + ', label ' + inner.scrollWidth + ' in ' + inner.clientWidth
        : '';
    })()`)) as string;
    assert.equal(cut, '', `${width} px: the notice's button is cut`);
    await page.close();
  }
});

test('the message box stays in view under a tall approval and the open meter; focus comes back to it', async () => {
  const detail = Array.from({ length: 60 }, (_, i) => `line ${i} of a long command`).join('\n');
  const page = await open(300, 450, chat({ id: 'ap1', kind: 'command', title: 'Run this command?', detail }));
  await page.locator('cd-app [data-testid="meter-toggle"]').click();
  await page.locator('cd-app [data-testid="meter-details"]').waitFor();
  const box = await page.locator('cd-app [data-testid="composer"]').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 450, `the message box is out of view: ${JSON.stringify(box)}`);
  // Approved with the mouse: the prompt goes, and the focus goes back to the message box.
  await page.locator('cd-app [data-testid="approve"]').click();
  await patch(page, [{ op: 'approval', approval: undefined }]);
  assert.equal(await focusAfter(page), 'composer');
  // Sent with the Send button (the host takes it): the box is empty, Send disabled, the focus in the box.
  await page.locator('cd-app [data-testid="composer"]').fill('next step');
  await page.locator('cd-app [data-testid="send"]').click();
  await page.waitForFunction("window.__posted.some((m) => m.method === 'send')");
  await page.locator('cd-app [data-testid="send"][disabled]').waitFor();
  assert.equal(await focusAfter(page), 'composer');
  // While the agent works, the host refuses: Enter keeps the message and says why.
  await patch(page, [{ op: 'status', status: 'running' }]);
  await page.evaluate(() =>
    Object.assign(window, { __results: { send: { accepted: false, reason: 'The agent is still working.' } } }),
  );
  await page.locator('cd-app [data-testid="composer"]').fill('and then this');
  await page.locator('cd-app [data-testid="composer"]').press('Enter');
  await page.locator('cd-app [data-testid="send-refused"]').waitFor({ timeout: 2000 });
  assert.match(await page.locator('cd-app [data-testid="send-refused"]').innerText(), /agent is still working/);
  assert.equal(await page.locator('cd-app [data-testid="composer"]').inputValue(), 'and then this');
  await page.close();
});

test('lists nested 8 deep and a model’s own <pre> stay inside a 300 pixel panel and at 200% zoom (150)', async () => {
  const nested = Array.from({ length: 8 }, (_, i) => `${'  '.repeat(i)}- level ${i + 1} of a nested list`).join('\n');
  const text = `${nested}\n\n<pre>${'p'.repeat(300)}</pre>\n\n1. one\n   1. one.one`;
  for (const width of [150, 300]) {
    const page = await panel.open(
      { ...chat(), items: [{ kind: 'assistant', id: 'a1', turn: 1, streaming: false, text, tools: [] }] },
      { width, height: 600 },
    );
    await page.locator('cd-app .item.assistant').waitFor();
    const widths = (await page.evaluate(`(() => {
      const conv = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot;
      const s = conv.querySelector('.scroller');
      const right = Math.max(...[...conv.querySelectorAll('.markdown li')].map((li) => li.getBoundingClientRect().right));
      return { scroll: s.scrollWidth, client: s.clientWidth, right };
    })()`)) as Record<string, number>;
    assert.ok(
      widths.scroll! <= widths.client! + 1,
      `${width} px: the conversation scrolls sideways (${JSON.stringify(widths)})`,
    );
    assert.ok(widths.right! <= width, `${width} px: a list item ends outside the panel (${JSON.stringify(widths)})`);
    await page.close();
  }
});

test('the strategy and model pickers can be changed while the agent works', async () => {
  const page = await panel.open({ ...chat(), status: 'running' }, { width: 300, height: 600 });
  const picker = page.locator('cd-app [data-testid="strategy-picker"]');
  await picker.selectOption('raw', { timeout: 2000 });
  await page.waitForFunction("window.__posted.some((m) => m.method === 'setStrategy' && m.params.strategy === 'raw')");
  assert.equal(await page.locator('cd-app [data-testid="model-picker"]').isEnabled(), true);
  await page.close();
});
