// Approvals that wait behind one another: the prompt says "1 of 3" (read as "Request 1 of 3"), and the
// kind's badge stays inside the box at 110 px (220 at 200 % zoom), where "Command" ran into its edge.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyChat, patch, startPanel, type Panel } from './panel-harness';
import type { ApprovalRequest } from '../../../src/protocol/chat';

let panel: Panel;
before(async () => {
  panel = await startPanel();
});
after(() => panel?.close());

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'approval-1',
  kind: 'command',
  title: 'Run this command?',
  detail: 'npm test',
  ...over,
});

test('a prompt with more waiting says its place, to the eye and to a screen reader', async () => {
  const page = await panel.open(emptyChat({ status: 'running', approval: request({ place: { at: 1, of: 3 } }) }));
  const box = page.locator('cd-app [data-testid="approval"]');
  await box.waitFor();
  const place = page.locator('cd-app [data-testid="approval-place"]');
  assert.equal((await place.innerText()).replace(/\s+/g, ' ').trim(), 'Request 1 of 3');
  // "Request" is for a screen reader only: the eye sees "1 of 3" beside the answers.
  assert.ok(((await place.locator('.sr-only').boundingBox())?.width ?? 0) <= 1, 'the word is hidden from view');
  const name = await page.evaluate(`(() => {
    const r = document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot;
    const box = r.querySelector('[data-testid="approval"]');
    return box.getAttribute('aria-labelledby').split(' ').map((id) => r.getElementById(id).textContent.trim()).join(' ');
  })()`);
  assert.equal(name, 'Run this command? Request 1 of 3');
  await page.close();
  const alone = await panel.open(emptyChat({ status: 'running', approval: request() }));
  await alone.locator('cd-app [data-testid="approval"]').waitFor();
  assert.equal(await alone.locator('cd-app [data-testid="approval-place"]').count(), 0);
  await alone.close();
});

test("the kind's badge and the place stay inside the prompt at 300, 220 and 110 px", async () => {
  for (const width of [300, 220, 110])
    for (const kind of ['command', 'mcp', 'budget', 'edit'] as const) {
      const approval = request({ kind, place: { at: 2, of: 12 } });
      const page = await panel.open(emptyChat({ status: 'running', approval }), { width, height: 500 });
      await page.locator('cd-app [data-testid="approval"]').waitFor();
      const past = await page.evaluate(`(() => {
        const r = document.querySelector('cd-app').shadowRoot.querySelector('cd-approval').shadowRoot;
        const box = r.querySelector('.box');
        const s = getComputedStyle(box);
        const inner = box.getBoundingClientRect().right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight);
        return ['.kind', '.place', '.title'].filter((q) => {
          const e = r.querySelector(q);
          return e && (e.getBoundingClientRect().right > inner + 0.5 || e.scrollWidth > e.clientWidth + 1);
        });
      })()`);
      assert.deepEqual(past, [], `${width} px, ${kind}: past the prompt's inner edge`);
      await page.close();
    }
});

test('a change in how many approvals wait is said once by the polite live region, not at each render', async () => {
  const page = await panel.open(emptyChat({ status: 'running', approval: request() }));
  await page.locator('cd-app [data-testid="approval"]').waitFor();
  const ANNOUNCER = `document.querySelector('cd-app').shadowRoot.querySelector('[data-testid="announcer"]')`;
  assert.equal(await page.evaluate(`${ANNOUNCER}.getAttribute('aria-live')`), 'polite');
  // Each change of the region's text is one announcement.
  await page.evaluate(`(() => {
    window.__said = [];
    const a = ${ANNOUNCER};
    new MutationObserver(() => window.__said.push(a.textContent.trim())).observe(a, { subtree: true, childList: true, characterData: true });
  })()`);
  const said = (): Promise<string[]> => page.evaluate('[...new Set(window.__said)]');
  await patch(page, [{ op: 'approval', approval: request({ place: { at: 1, of: 2 } }) }]);
  await page.waitForFunction(`window.__said.includes('Approval request 1 of 2')`);
  // Renders that leave the count alone (a status line, the same prompt posted again) say nothing more.
  const frames = (): Promise<unknown> =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const count = Number(await page.evaluate('window.__said.length'));
  await patch(page, [{ op: 'activity', text: 'Waiting for approval' }]);
  await page.locator('cd-app [data-testid="status"]').filter({ hasText: 'Waiting for approval' }).waitFor();
  await patch(page, [{ op: 'approval', approval: request({ place: { at: 1, of: 2 } }) }]);
  await frames();
  assert.equal(await page.evaluate('window.__said.length'), count, `said: ${JSON.stringify(await said())}`);
  await patch(page, [{ op: 'approval', approval: request({ place: { at: 1, of: 3 } }) }]);
  await page.waitForFunction(`window.__said.includes('Approval request 1 of 3')`);
  assert.equal(await page.evaluate('window.__said.length'), count + 1, `said: ${JSON.stringify(await said())}`);
  await patch(page, [{ op: 'approval', approval: request({ id: 'approval-2', place: { at: 2, of: 3 } }) }]);
  await page.waitForFunction(`window.__said.at(-1)?.endsWith('(request 2 of 3)')`);
  assert.deepEqual(await said(), [
    'Approval request 1 of 2',
    'Approval request 1 of 3',
    'Approval needed, above the message box: Run this command? (request 2 of 3)',
  ]);
  await page.close();
});
