import { test } from 'node:test';
import assert from 'node:assert/strict';
import { announcement } from '../../../src/webview/lib/announce';
import { emptyChat } from './panel-harness';

test('says a new approval and a new error once; nothing for what was already there', () => {
  const running = emptyChat({
    status: 'running',
    items: [{ kind: 'notice', id: 'n0', level: 'error', text: 'old' }],
  });
  assert.equal(announcement(undefined, running), undefined);
  assert.equal(announcement(running, running), undefined);
  const asked = {
    ...running,
    approval: { id: 'ap1', kind: 'command' as const, title: 'Run this command?', detail: 'ls' },
  };
  assert.equal(announcement(running, asked), 'Approval needed, above the message box: Run this command?');
  assert.equal(announcement(asked, { ...asked }), undefined);
  const failed = emptyChat({
    status: 'error',
    items: [...running.items, { kind: 'notice', id: 'n1', level: 'error', text: 'ECONNREFUSED' }],
  });
  assert.equal(announcement(running, failed), 'Error: ECONNREFUSED');
  const info = emptyChat({ status: 'running', items: [{ kind: 'notice', id: 'n2', level: 'info', text: 'fyi' }] });
  assert.equal(announcement(running, info), undefined);
});

test("says a waiting approval's new place once: a count that grew, and a next one's place", () => {
  const ask = (id: string, place?: { at: number; of: number }) =>
    emptyChat({
      status: 'running',
      approval: { id, kind: 'command', title: 'Run this command?', detail: 'ls', ...(place ? { place } : {}) },
    });
  const alone = ask('ap1');
  const twoWait = ask('ap1', { at: 1, of: 2 });
  const threeWait = ask('ap1', { at: 1, of: 3 });
  assert.equal(announcement(alone, twoWait), 'Approval request 1 of 2');
  assert.equal(announcement(twoWait, threeWait), 'Approval request 1 of 3');
  assert.equal(announcement(threeWait, { ...threeWait, status: 'running' }), undefined);
  assert.equal(announcement(threeWait, ask('ap1', { at: 1, of: 3 })), undefined, 'the same place is not said again');
  assert.equal(
    announcement(threeWait, ask('ap2', { at: 2, of: 3 })),
    'Approval needed, above the message box: Run this command? (request 2 of 3)',
  );
});
