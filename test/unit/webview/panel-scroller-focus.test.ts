// Chromium (VS Code's too, since 130) puts a box that scrolls and holds nothing focusable in the Tab
// order, so a wide table, a wide code block or a long command can be scrolled from the keyboard. Those
// boxes drew the browser's own ring, not the theme's focus colour (orange in High Contrast).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, startPanel, type Panel } from './panel-harness';
import type { ChatItem } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const wide = 'x'.repeat(300);
const items: ChatItem[] = [
  {
    kind: 'assistant',
    id: 'a1',
    turn: 1,
    streaming: false,
    text: [
      '| first column | second column | third column | fourth column |',
      '| --- | --- | --- | --- |',
      '| aaaaaaaaaaaa | bbbbbbbbbbbbb | ccccccccccccc | ddddddddddddd |',
      '',
      '```js',
      `const x = "${wide}";`,
      '```',
    ].join('\n'),
    tools: [],
  },
];
const approval = {
  id: 'ap1',
  kind: 'command' as const,
  title: 'Run this command?',
  detail: Array.from({ length: 60 }, (_, i) => `echo line ${i}`).join('\n'),
};

for (const [theme, ring] of [
  ['dark', 'rgb(0, 120, 212)'],
  ['hc', 'rgb(243, 133, 24)'],
] as const)
  test(`a table, a code block and a command that scroll show the theme's focus ring (${theme})`, async () => {
    const page = await panel.open(emptyChat({ items, status: 'running', approval }), {
      width: 300,
      height: 400,
      theme,
    });
    await page.locator('cd-app [data-testid="approval"]').waitFor();
    await page.locator('cd-app [data-testid="conversation"]').focus();
    const scrollers: string[] = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const f = (await page.evaluate(`(() => {
        let a = document.activeElement;
        while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
        const s = getComputedStyle(a);
        const scrolls = /auto|scroll/.test(s.overflowX + s.overflowY) && (a.scrollWidth > a.clientWidth || a.scrollHeight > a.clientHeight);
        return { tag: a.tagName.toLowerCase(), testid: a.dataset.testid || '', scrolls, style: s.outlineStyle, colour: s.outlineColor };
      })()`)) as { tag: string; testid: string; scrolls: boolean; style: string; colour: string };
      if (f.testid === 'composer') break;
      if (f.scrolls) scrollers.push(`${f.tag}: ${f.style} ${f.colour}`);
    }
    assert.deepEqual(scrollers, [`table: solid ${ring}`, `pre: solid ${ring}`, `pre: solid ${ring}`]);
    await page.close();
  });
