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
