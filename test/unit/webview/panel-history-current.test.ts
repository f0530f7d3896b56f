// In History the keyboard focus and the open session are two different marks: a focused row was drawn
// as a 1 px focus-coloured line around it, the open session's row as a 1 px focus-coloured border, so
// moving off the open session looked like not moving. Checked from computed styles (what each edge and
// the background draw), in the dark, light and high-contrast themes and under forced colours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import type { ThemeName } from '../../../scripts/lib/panel-themes';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const pastSessions = ['a', 'b', 'c'].map((id, i) => ({ id, title: `Session ${id}`, createdAt: 3 - i, turns: 1 }));

/**
 * What a row draws, per edge: the outline (drawn over the border when inset) or else the border, as
 * "width style colour", and its background. Transparent or zero-width lines draw nothing.
 */
const LOOK = `((index) => {
  const root = document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot;
  const row = root.querySelector('.session[data-index="' + index + '"]');
  const s = getComputedStyle(row);
  const seen = (w, style, colour) =>
    parseFloat(w) > 0 && style !== 'none' && style !== 'hidden' && !/rgba\\(.*, 0\\)$|transparent/.test(colour);
  const outline = seen(s.outlineWidth, s.outlineStyle, s.outlineColor)
    ? parseFloat(s.outlineWidth) + ' ' + s.outlineStyle + ' ' + s.outlineColor : '';
  const edges = ['Top', 'Right', 'Bottom', 'Left'].map((side) => {
    const w = s['border' + side + 'Width'], style = s['border' + side + 'Style'], c = s['border' + side + 'Color'];
    const border = seen(w, style, c) ? parseFloat(w) + ' ' + style + ' ' + c : '';
    return [outline, border].filter(Boolean).join(' + ') || 'none';
  });
  const bg = /rgba\\(.*, 0\\)$|transparent/.test(s.backgroundColor) ? 'none' : s.backgroundColor;
  return JSON.stringify({ edges, bg });
})`;

async function look(page: Page, index: number): Promise<string> {
  return page.evaluate(`${LOOK}(${index})`);
}

for (const [theme, forced] of [
  ['dark', false],
  ['light', false],
  ['hc', false],
  ['hc', true],
] as [ThemeName, boolean][])
  test(`History draws the focused row unlike the open session's row (${theme}${forced ? ', forced colours' : ''})`, async () => {
    const page = await panel.open(emptyChat({ pastSessions, sessionId: 'a' }), { width: 300, height: 400, theme });
    if (forced) await page.emulateMedia({ forcedColors: 'active' });
    await page.evaluate(() =>
      window.postMessage({ type: 'notification', method: 'showView', params: { view: 'history' } }, '*'),
    );
    const focusedIndex = `(() => { const r = document.querySelector('cd-app').shadowRoot.querySelector('cd-history').shadowRoot; return r.activeElement ? r.activeElement.dataset.index : ''; })()`;
    await page.waitForFunction(`${focusedIndex} === '0'`);
    const plain = await look(page, 2);
    const currentFocused = await look(page, 0);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(`${focusedIndex} === '1'`);
    const focused = await look(page, 1);
    const current = await look(page, 0);
    assert.notEqual(focused, plain, 'a focused row is marked');
    assert.notEqual(current, plain, "the open session's row is marked");
    assert.notEqual(focused, current, "a focused row does not look like the open session's row");
    assert.notEqual(currentFocused, current, "the open session's row shows the focus too");
    assert.notEqual(currentFocused, focused, 'focused, the open session stays marked as open');
    await page.close();
  });
