// The Agent panel's dock at sidebar widths (150, 300 and 800 px) in a real headless Chromium: every
// figure of the meter line (tokens, cost, masked, budget) and the names in the strategy and model
// pickers are shown whole: a narrow panel puts them on more lines instead of cutting them off.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const chat = emptyChat({
  meter: {
    ...emptyChat().meter,
    maskedObservations: 12,
    costUsd: 0.2048,
    budget: { state: 'ok', usedPercent: 42, limit: 1_000_000 },
  },
});

/** The figures of the meter line and the pickers that are cut off or outside the panel. */
const CUT = `(() => {
  const app = document.querySelector('cd-app').shadowRoot;
  const meter = app.querySelector('cd-meter').shadowRoot;
  const line = meter.querySelector('.line').getBoundingClientRect();
  const cut = [];
  for (const id of ['meter-tokens', 'meter-cost', 'meter-masked', 'meter-budget']) {
    const el = meter.querySelector('[data-testid="' + id + '"]');
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || r.right > line.right + 1 || r.bottom > line.bottom + 1 || r.width === 0) cut.push(id);
  }
  const composer = app.querySelector('cd-composer').shadowRoot;
  // What a picker shows is the label under its transparent select: the chosen option's text, whole.
  for (const id of ['strategy-picker', 'model-picker']) {
    const s = composer.querySelector('[data-testid="' + id + '"]');
    const label = s.parentElement.querySelector('.shown');
    const want = s.options[s.selectedIndex].text;
    const shown = label ? label.getBoundingClientRect() : undefined;
    const box = s.parentElement.getBoundingClientRect();
    if (!label || label.textContent !== want || label.scrollWidth > label.clientWidth + 1 || shown.right > box.right + 1 || shown.bottom > box.bottom + 1 || box.right > innerWidth)
      cut.push(id + ' (shows ' + JSON.stringify(label ? label.textContent : s.value) + ')');
  }
  return cut;
})()`;

test('the meter line and the pickers are not cut at 150, 300 and 800 pixels', async () => {
  for (const width of [150, 300, 800]) {
    const page = await panel.open(chat, { width, height: 500 });
    assert.deepEqual(await page.evaluate(CUT), [], `${width} px: cut off`);
    assert.ok(
      ((await page.evaluate('document.documentElement.scrollWidth')) as number) <= width,
      `${width} px: scrolls sideways`,
    );
    await page.close();
  }
});

/**
 * The separator dots of the meter line a reader sees that start a line: a dot is seen unless an ancestor
 * that clips (overflow other than visible) hides it; it starts a line when no figure on its row is left of it.
 */
const LEADING_DOTS = `(() => {
  const meter = document.querySelector('cd-app').shadowRoot.querySelector('cd-meter').shadowRoot;
  const line = meter.querySelector('.line');
  const figures = [...line.querySelectorAll('[data-testid^="meter-"]')].map((e) => e.getBoundingClientRect());
  const leading = [];
  for (const dot of [...line.querySelectorAll('*')].filter((e) => e.children.length === 0 && e.textContent.trim() === '·')) {
    const d = dot.getBoundingClientRect();
    let clipLeft = -Infinity;
    for (let a = dot.parentElement; a && a !== line.parentElement; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') clipLeft = Math.max(clipLeft, a.getBoundingClientRect().left);
    if (d.right <= clipLeft + 1) continue;
    const row = figures.filter((f) => Math.abs(f.top - d.top) < d.height / 2 && f.right <= d.left + 1);
    if (row.length === 0) leading.push(Math.round(d.left) + ',' + Math.round(d.top));
  }
  return leading;
})()`;

test('no separator dot of the meter line starts a line and no figure is cut at 110 (220 at 200 % zoom), 150, 220 and 300 pixels', async () => {
  const budgetFirst = emptyChat({
    meter: { ...chat.meter, budget: { state: 'warning', usedPercent: 91, limit: 1_000_000 } },
  });
  for (const snapshot of [chat, budgetFirst])
    for (const width of [110, 150, 220, 300]) {
      const page = await panel.open(snapshot, { width, height: 500 });
      assert.deepEqual(await page.evaluate(LEADING_DOTS), [], `${width} px: dots at the start of a line`);
      assert.deepEqual(await page.evaluate(CUT), [], `${width} px: cut off`);
      await page.close();
    }
});

test('a long model name reads whole in the model picker at 110 (220 at 200 % zoom), 220 and 300 pixels', async () => {
  const name = 'accounts/fireworks/models/qwen2p5-coder-32b-instruct-preview-2026-11';
  const long = emptyChat({ ...chat, model: `openai-compatible/${name}`, models: [name, 'gpt-4.1'], strategy: 'raw' });
  for (const width of [110, 220, 300]) {
    const page = await panel.open(long, { width, height: 500 });
    assert.deepEqual(await page.evaluate(CUT), [], `${width} px: cut off`);
    assert.ok(
      ((await page.evaluate('document.documentElement.scrollWidth')) as number) <= width,
      `${width} px: scrolls`,
    );
    await page.close();
  }
});

test('the model picker shows the model the arrow keys pass over, and the one in use again after Escape', async () => {
  const page = await panel.open(emptyChat({ models: ['gpt-4.1-mini', 'gpt-4.1'] }), { width: 220, height: 500 });
  const model = page.locator('cd-app [data-testid="model-picker"]');
  const shown = page.locator('cd-app .pick:has([data-testid="model-picker"]) .shown');
  assert.equal(await shown.textContent(), 'gpt-4.1-mini');
  await model.focus();
  await model.press('ArrowDown');
  assert.equal(await shown.textContent(), 'gpt-4.1');
  await model.press('Escape');
  assert.equal(await shown.textContent(), 'gpt-4.1-mini');
  await page.close();
});

test('a budget 99.6 % spent by an estimated count reads "≈ 99.6%", not a full 100 %', async () => {
  const estimated = emptyChat({
    meter: { ...emptyChat().meter, estimated: true, budget: { state: 'warning', usedPercent: 99.6, limit: 30_000 } },
  });
  const page = await panel.open(estimated, { width: 300, height: 500 });
  assert.equal(
    (await page.locator('cd-app [data-testid="meter-budget"]').innerText()).replace(/\s+/g, ' ').trim(),
    'budget ≈ 99.6%',
  );
  await page.locator('cd-app [data-testid="meter-toggle"]').click();
  assert.match(await page.locator('cd-app [data-testid="meter-details"]').innerText(), /≈ 99\.6% of 30,000 tokens/);
  await page.close();
});

test('the status line shows a whole retry message at 220 and 300 pixels', async () => {
  const activity = 'Retrying in 30 s (attempt 2): the provider is rate limiting; tool traffic filtered…';
  for (const width of [220, 300]) {
    const page = await panel.open(emptyChat({ status: 'running', activity }), { width, height: 500 });
    const cut = await page.evaluate(`(() => {
      const line = document.querySelector('cd-app').shadowRoot.querySelector('.status-line');
      const text = line.querySelector('[data-testid="status"]');
      const l = line.getBoundingClientRect();
      const t = text.getBoundingClientRect();
      return line.scrollWidth > line.clientWidth + 1 || t.right > l.right + 1 || t.bottom > l.bottom + 1;
    })()`);
    assert.equal(cut, false, `${width} px: the status line is cut`);
    await page.close();
  }
});

test('History shows each session title whole at 220 and 300 pixels (titles that start alike differ at the end)', async () => {
  const title = 'Fix the failing test in the billing service where the invoice total is off by a cent';
  const sessions = [
    { id: 'p1', title, createdAt: 1, turns: 3 },
    { id: 'p2', title: `${'averyveryverylongidentifierwithoutspaces'.repeat(2)}`, createdAt: 2, turns: 1 },
  ];
  for (const width of [220, 300]) {
    const page = await panel.open(emptyChat({ pastSessions: sessions }), { width, height: 500 });
    await page.evaluate(() =>
      window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
    );
    await page.locator('cd-app [data-testid="history-item"]').first().waitFor();
    const cut = (await page.evaluate(`(() => {
      const root = document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot;
      return [...root.querySelectorAll('.title')]
        .filter((t) => t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1 || t.getBoundingClientRect().right > innerWidth)
        .map((t) => t.textContent);
    })()`)) as string[];
    assert.deepEqual(cut, [], `${width} px: titles cut`);
    await page.close();
  }
});

test('the welcome wraps a long model name inside a 220 and a 300 pixel panel', async () => {
  const model = 'anthropic.claude-3-7-sonnet-20250219-v1:0-with-an-extremely-long-deployment-name';
  for (const width of [220, 300]) {
    const page = await panel.open(emptyChat({ model: `openai-compatible/${model}`, models: [model] }), {
      width,
      height: 500,
    });
    const past = await page.evaluate(`(() => {
      const welcome = document.querySelector('cd-app').shadowRoot.querySelector('cd-welcome').shadowRoot;
      return [...welcome.querySelectorAll('p, strong')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
        .map((e) => e.textContent.trim().slice(0, 40));
    })()`);
    assert.deepEqual(past, [], `${width} px: past the right edge`);
    await page.close();
  }
});

test('a long error notice reads on lines as wide as the notice, its button below, at 220 and 300 pixels', async () => {
  const text = `The provider said: ${'Error 400 invalid_request_error '.repeat(6)}${'x'.repeat(400)}`;
  const notice = { kind: 'notice' as const, id: 'n', level: 'error' as const, text };
  const snapshot = emptyChat({ items: [{ ...notice, action: { label: 'Show Log', action: 'showLog' } }] });
  for (const width of [220, 300]) {
    const page = await panel.open(snapshot, { width, height: 500 });
    const [box, line] = (await page.evaluate(`(() => {
      const n = document.querySelector('cd-app').shadowRoot.querySelector('cd-conversation').shadowRoot.querySelector('.notice');
      return [n.getBoundingClientRect().width, n.querySelector('.text').getBoundingClientRect().width];
    })()`)) as [number, number];
    assert.ok(line > box * 0.7, `${width} px: the text has ${Math.round(line)} of the notice's ${Math.round(box)} px`);
    await page.close();
  }
});

test('Approve and Deny read on one line each at 110 (220 at 200 % zoom) and 300 pixels', async () => {
  const approval = { id: 'a', kind: 'command' as const, title: 'Run this command?', detail: 'npm install' };
  for (const width of [110, 300]) {
    const page = await panel.open(emptyChat({ status: 'running', approval }), { width, height: 500 });
    for (const id of ['approve', 'deny']) {
      const [height, line] = await page.locator(`cd-app [data-testid="${id}"]`).evaluate((e) => {
        const base = e.shadowRoot!.querySelector('[part~="base"]')!;
        return [base.getBoundingClientRect().height, parseFloat(getComputedStyle(base).lineHeight)];
      });
      assert.ok(height < line * 2, `${width} px: ${id} takes ${height} px, two lines of ${line} px`);
    }
    await page.close();
  }
});
