// The Agent panel for keyboard and screen-reader users, in a real headless Chromium at sidebar size: a
// long answer streamed in many chunks is drawn once a frame (not once a chunk), what needs the user (an
// approval, a new error) is said in one live region while the virtualized conversation
// is not live, warnings and errors read in every theme, model links and Copy show the theme's focus ring,
// and Test connection's answer lands in a live region that was there before it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { FOCUSED, emptyChat, patch, startPanel, type Panel } from './panel-harness';
import { SETUP_FORM } from '../../../scripts/lib/panel-fixture';
import type { ChatItem } from '../../../src/protocol/chat';
import { PARTS_PER_FRAME, markdownParts } from '../../../src/webview/lib/markdownParts';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(async () => {
  await panel?.close();
});

/** The conversation's shadow root, as page script. */
const CONV = `document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot`;

test('a long answer streamed in 40 chunks is drawn a few times, not once per chunk', async () => {
  const para = (i: number): string =>
    `Paragraph ${i} with **bold**, \`code\` and [a link](https://example.com/${i}).\n\n`;
  let text = '';
  for (let i = 0; text.length < 100_000; i++) text += para(i);
  const chunks = Array.from({ length: 40 }, (_, i) => text.slice(i * 2_500, (i + 1) * 2_500));
  const last = `Paragraph ${text.trimEnd().split('\n\n').length - 1} with`;
  const page = await panel.open(
    emptyChat({
      status: 'running',
      items: [
        { kind: 'user', id: 'u1', text: 'Explain everything', at: 1 },
        { kind: 'assistant', id: 'a1', turn: 1, streaming: true, text: '', tools: [] },
      ],
    }),
  );
  await page.locator('cd-app .item.assistant').waitFor();
  // Every batch of DOM changes inside the answer is one drawing of it.
  await page.evaluate(`(() => {
    window.__draws = 0;
    new MutationObserver((records) => {
      if (records.some((r) => r.target.closest && r.target.closest('.assistant'))) window.__draws++;
    }).observe(${CONV}, { subtree: true, childList: true, characterData: true });
  })()`);
  const started = Date.now();
  await page.evaluate((cs) => {
    for (const c of cs)
      window.postMessage(
        { type: 'notification', method: 'chatPatch', params: [{ op: 'appendText', id: 'a1', text: c }] },
        '*',
      );
  }, chunks);
  // Drawn in full: all of the text, every part formatted (a few parts a frame, newest first: PARTS_PER_FRAME).
  await page.waitForFunction(
    `(${CONV}.querySelector('.assistant .markdown')?.textContent ?? '').includes(${JSON.stringify(last)}) &&
      !${CONV}.querySelector('.assistant pre.plain')`,
    null,
    { timeout: 60_000 },
  );
  const draws = (await page.evaluate('window.__draws')) as number;
  const rounds = Math.ceil(markdownParts(text).length / PARTS_PER_FRAME);
  assert.ok(draws <= rounds + 4, `the answer was drawn ${draws} times for 40 chunks (${Date.now() - started} ms)`);
  await page.close();
});

test('an answer being written says so to a screen reader: its spinner is an image named Writing', async () => {
  const page = await panel.open(
    emptyChat({
      status: 'running',
      items: [
        { kind: 'user', id: 'u1', text: 'Hi', at: 1 },
        { kind: 'assistant', id: 'a1', turn: 1, streaming: true, text: 'Hel', tools: [] },
      ],
    }),
  );
  await page.locator('cd-app .item.assistant').waitFor();
  assert.equal(await page.getByRole('img', { name: 'Writing' }).count(), 1);
  await page.close();
});

test('a chunk streamed into a 200 KB answer redraws only the end of it', async () => {
  let text = '';
  for (let i = 0; text.length < 200_000; i++) text += `Paragraph ${i} with **bold** and \`code\`.\n\n- a\n- b\n\n`;
  const page = await panel.open(
    emptyChat({
      status: 'running',
      items: [{ kind: 'assistant', id: 'a1', turn: 1, streaming: true, text, tools: [] }],
    }),
  );
  await page.locator('cd-app .item.assistant .markdown p').first().waitFor();
  await page.evaluate(`(() => {
    const md = ${CONV}.querySelector('.assistant .markdown');
    md.querySelector('p').__first = true;
    window.__added = 0;
    new MutationObserver((records) => { for (const r of records) window.__added += r.addedNodes.length; })
      .observe(md, { subtree: true, childList: true, characterData: true });
  })()`);
  await patch(page, [{ op: 'appendText', id: 'a1', text: 'The end **now**.' }]);
  await page.waitForFunction(`(${CONV}.querySelector('.assistant .markdown').textContent).includes('The end now.')`);
  const after = (await page.evaluate(
    `[${CONV}.querySelector('.assistant .markdown p').__first === true, window.__added]`,
  )) as [boolean, number];
  assert.equal(after[0], true, 'the start of the answer was drawn again');
  assert.ok(after[1] < 200, `${after[1]} nodes added for one chunk`);
  await page.close();
});

test('an approval that appears while the user types is announced, so is a new error, once', async () => {
  const items: ChatItem[] = [
    { kind: 'user', id: 'u1', text: 'Clean the build', at: 1 },
    { kind: 'assistant', id: 'a1', turn: 1, streaming: false, text: 'Cleaning.', tools: [] },
    { kind: 'notice', id: 'n0', level: 'error', text: 'An old failure' },
  ];
  const page = await panel.open(emptyChat({ status: 'running', items }));
  const announcer = page.locator('cd-app [data-testid="announcer"]');
  assert.equal(await announcer.getAttribute('role'), 'status');
  const box = page.locator('cd-app [data-testid="composer"]');
  await box.focus();
  await box.pressSequentially('and then ');
  await patch(page, [
    { op: 'approval', approval: { id: 'ap1', kind: 'command', title: 'Run this command?', detail: 'rm -rf build' } },
  ]);
  await page.locator('cd-app [data-testid="approval"]').waitFor();
  await page.waitForFunction(
    `/Approval needed.*Run this command\\?/.test(document.querySelector('cd-app').shadowRoot.querySelector('[data-testid="announcer"]').textContent)`,
  );
  assert.equal(await page.evaluate(FOCUSED), 'composer', 'the prompt took the focus from a user who was typing');
  await patch(page, [
    { op: 'approval', approval: undefined },
    { op: 'upsertItem', item: { kind: 'notice', id: 'n1', level: 'error', text: 'The request failed: ECONNREFUSED' } },
    { op: 'status', status: 'error' },
  ]);
  await page.waitForFunction(
    `/Error: The request failed: ECONNREFUSED/.test(document.querySelector('cd-app').shadowRoot.querySelector('[data-testid="announcer"]').textContent)`,
  );
  assert.doesNotMatch(await announcer.innerText(), /An old failure/);
  // Rows come back into the DOM as the user scrolls: none of them (an old error included) is live.
  const live = await page.evaluate(`(() => {
    const liveOf = (el) => {
      for (let e = el; e; e = e.parentElement || (e.parentNode && e.parentNode.host)) {
        const set = e.getAttribute && e.getAttribute('aria-live');
        if (set) return set;
        const role = e.getAttribute && e.getAttribute('role');
        if (role === 'alert') return 'assertive';
        if (role === 'log' || role === 'status') return 'polite';
      }
      return 'off';
    };
    return [...${CONV}.querySelectorAll('.row > *')].map(liveOf);
  })()`);
  assert.deepEqual(live, ['off', 'off', 'off', 'off']);
  await page.close();
});

/** Contrast (WCAG) of each element's text against what is painted behind it (faded by any opacity). */
const CONTRAST = (selectors: string[]): string => `(() => {
  const parse = (c) => { const p = c.match(/[\\d.]+/g).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const over = (f, b) => ({ r: f.r * f.a + b.r * (1 - f.a), g: f.g * f.a + b.g * (1 - f.a), b: f.b * f.a + b.b * (1 - f.a), a: 1 });
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const find = (root, sel) => { const hit = root.querySelector(sel); if (hit) return hit; for (const e of root.querySelectorAll('*')) if (e.shadowRoot) { const h = find(e.shadowRoot, sel); if (h) return h; } return null; };
  const out = {};
  for (const sel of ${JSON.stringify(selectors)}) {
    const el = find(document, sel);
    if (!el) { out[sel] = 'missing'; continue; }
    const layers = [];
    for (let e = el; e; e = up(e)) { const c = parse(getComputedStyle(e).backgroundColor); if (c.a > 0) layers.push(c); if (c.a === 1) break; }
    let bg = parse(getComputedStyle(document.body).backgroundColor);
    for (const c of layers.reverse()) bg = over(c, bg);
    const color = parse(getComputedStyle(el).color);
    for (let e = el; e; e = up(e)) color.a *= Number(getComputedStyle(e).opacity);
    const fg = over(color, bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    out[sel] = Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
  }
  return out;
})()`;

test('a failed tool call, a failed run and a session not written here read in the dark, light and high-contrast themes', async () => {
  for (const theme of ['dark', 'light', 'hc'] as const) {
    const items: ChatItem[] = [
      { kind: 'user', id: 'u1', text: 'Test it', at: 1 },
      {
        kind: 'assistant',
        id: 'a1',
        turn: 1,
        streaming: false,
        text: 'Running the tests.',
        tools: [
          { callId: 'c1', tool: 'run_command', arguments: '{"command":"npm test"}', state: 'error', preview: 'failed' },
        ],
      },
    ];
    const past = [{ id: 'p1', title: 'From the repository', createdAt: 1, turns: 2, foreign: true }];
    const page = await panel.open(emptyChat({ status: 'error', items, pastSessions: past }), { theme });
    await page.locator('cd-app .item.assistant').waitFor();
    const chat = (await page.evaluate(CONTRAST(['.state-error .state', '[data-testid="status"]']))) as Record<
      string,
      number
    >;
    await page.evaluate(() =>
      window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
    );
    await page.locator('cd-app [data-testid="history-foreign"]').waitFor();
    const history = (await page.evaluate(CONTRAST(['[data-testid="history-foreign"]']))) as Record<string, number>;
    for (const [what, ratio] of Object.entries({ ...chat, ...history }))
      assert.ok(typeof ratio === 'number' && ratio >= 4.5, `${theme}: ${what} has a contrast of ${ratio} (4.5 needed)`);
    await page.close();
  }
});

test('the meter line reads in every theme, its separating dots too', async () => {
  for (const theme of ['dark', 'light', 'hc'] as const) {
    const page = await panel.open(emptyChat({ meter: { ...emptyChat().meter, maskedObservations: 2 } }), { theme });
    await page.locator('cd-app [data-testid="meter-masked"]').waitFor();
    const ratios = (await page.evaluate(CONTRAST(['[data-testid="meter-tokens"]', '.line .sep']))) as Record<
      string,
      number
    >;
    for (const [what, ratio] of Object.entries(ratios))
      assert.ok(typeof ratio === 'number' && ratio >= 4.5, `${theme}: ${what} has a contrast of ${ratio} (4.5 needed)`);
    await page.close();
  }
});

test('links and Copy in an answer show the theme focus ring from the keyboard', async () => {
  const items: ChatItem[] = [
    {
      kind: 'assistant',
      id: 'a1',
      turn: 1,
      streaming: false,
      text: 'See [the docs](https://example.com).\n\n```\nnpm test\n```',
      tools: [],
    },
  ];
  const page = await panel.open(emptyChat({ items }));
  await page.locator('cd-app .item.assistant').waitFor();
  await page.locator('cd-app [data-testid="conversation"]').focus();
  for (const name of ['a', 'button.copy']) {
    await page.keyboard.press('Tab');
    const ring = (await page.evaluate(
      `(() => { let a = document.activeElement; while (a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; const s = getComputedStyle(a); return [a.matches(${JSON.stringify(name)}), s.outlineStyle, s.outlineColor]; })()`,
    )) as [boolean, string, string];
    // Dark Modern's focusBorder (#0078d4).
    assert.deepEqual(ring, [true, 'solid', 'rgb(0, 120, 212)'], `${name}: ${JSON.stringify(ring)}`);
  }
  await page.close();
});

test('a link whose script target was removed reads as text, not as a link that does nothing', async () => {
  const items: ChatItem[] = [
    {
      kind: 'assistant',
      id: 'a1',
      turn: 1,
      streaming: false,
      text: 'See [the docs](https://example.com) and [run me](javascript:alert(1)).',
      tools: [],
    },
  ];
  const page = await panel.open(emptyChat({ items }));
  await page.locator('cd-app .item.assistant').waitFor();
  const colours = (await page.evaluate(
    `(() => { const md = ${CONV}.querySelector('.assistant .markdown'); return [...md.querySelectorAll('a')].map((a) => [a.textContent, a.hasAttribute('href'), getComputedStyle(a).color === getComputedStyle(a.parentElement).color]); })()`,
  )) as [string, boolean, boolean][];
  assert.deepEqual(colours, [
    ['the docs', true, false],
    ['run me', false, true],
  ]);
  await page.close();
});

test("Test connection's answer lands in a live region that was there before it", async () => {
  const page: Page = await panel.open(emptyChat({ setup: { provider: 'openai-compatible', ready: false } }));
  const failure = {
    ok: false,
    url: 'http://127.0.0.1:11434/v1/models',
    message: 'No answer from http://127.0.0.1:11434/v1/models (ECONNREFUSED)',
    models: [],
  };
  await page.evaluate(
    ([form, result]) =>
      ((window as unknown as { __results: unknown }).__results = { getSetup: form, testConnection: result }),
    [SETUP_FORM, failure] as const,
  );
  await page.locator('cd-app [data-testid="open-setup"]').click();
  await page.locator('cd-app [data-testid="setup-test"]').waitFor();
  const region = await page.evaluate(`(() => {
    window.__region = document.querySelector('cd-app').shadowRoot.querySelector('cd-setup').shadowRoot.querySelector('[aria-live]');
    return window.__region && [window.__region.getAttribute('role'), window.__region.getAttribute('aria-live')];
  })()`);
  assert.deepEqual(region, ['status', 'polite'], 'no live region before the answer');
  await page.locator('cd-app [data-testid="setup-test"]').click();
  await page.locator('cd-app [data-testid="setup-result"]').waitFor();
  assert.ok(
    await page.evaluate(
      `window.__region.isConnected && window.__region.contains(window.__region.getRootNode().querySelector('[data-testid="setup-result"]'))`,
    ),
    'the answer is not inside the region that was there before it',
  );
  assert.match(await page.locator('cd-app [data-testid="setup-result"]').innerText(), /ECONNREFUSED/);
  await page.close();
});

test('a run that starts says so in the status live region that was there before it, and so does its end', async () => {
  const page: Page = await panel.open(emptyChat());
  const region = await page.evaluate(`(() => {
    const dock = document.querySelector('cd-app').shadowRoot.querySelector('.dock');
    window.__region = [...dock.querySelectorAll('[aria-live]')].find((r) => !r.closest('cd-meter'));
    return window.__region ? [window.__region.getAttribute('role'), window.__region.getAttribute('aria-live'), window.__region.textContent.trim()] : null;
  })()`);
  assert.deepEqual(region, ['status', 'polite', ''], 'no empty live region in the dock before the run');
  for (const [status, said] of [
    ['running', 'Running…'],
    ['completed', 'Completed'],
  ] as const) {
    await patch(page, [{ op: 'status', status }]);
    await page.locator('cd-app [data-testid="status"]', { hasText: said }).waitFor();
    assert.ok(
      await page.evaluate(
        `window.__region.isConnected && window.__region.contains(window.__region.getRootNode().querySelector('[data-testid="status"]'))`,
      ),
      `"${said}" is not inside the region that was there before it`,
    );
  }
  await page.close();
});

test('with reduced motion asked for, no spinner turns (the status line, an answer being written, a tool card)', async () => {
  const items: ChatItem[] = [
    { kind: 'user', id: 'u1', text: 'Go', at: 1 },
    {
      kind: 'assistant',
      id: 'a1',
      turn: 1,
      streaming: true,
      text: 'Reading',
      tools: [{ callId: 'c1', tool: 'read_file', arguments: '{}', state: 'running' }],
    },
  ];
  const page = await panel.open(emptyChat({ status: 'running', items }));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator('cd-app cd-tool-card').waitFor();
  const turning = (await page.evaluate(`(() => {
    const found = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.classList.contains('codicon-modifier-spin')) found.push(getComputedStyle(el).animationName);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return found;
  })()`)) as string[];
  assert.equal(turning.length, 3, `spinners found: ${turning.length}`);
  assert.deepEqual(
    turning.filter((name) => name !== 'none'),
    [],
  );
  await page.close();
});
