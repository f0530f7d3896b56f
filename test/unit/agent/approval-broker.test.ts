// The panel's approval queue: one request at a time, answers in order, "always" only where offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker } from '../../../src/extension/agent/approvals';
import type { ApprovalRequest, ChatPatch } from '../../../src/protocol/chat';

test('requests are shown one at a time; always counts only where it was offered', async () => {
  const shown: (ApprovalRequest | undefined)[] = [];
  const broker = new ApprovalBroker((patches: ChatPatch[]) => {
    for (const p of patches) if (p.op === 'approval') shown.push(p.approval);
  });
  const mcp = broker.request({ kind: 'mcp', title: 'Call s › t?', detail: '{}', alwaysLabel: 'Always allow s › t' });
  const command = broker.request({ kind: 'command', title: 'Run?', detail: 'ls' });
  assert.equal(shown.length, 1, 'the second waits behind the first');
  assert.equal(broker.answer('approval-2', true), false, 'only the request shown can be answered');
  assert.ok(broker.answer(shown[0]!.id, true, true));
  assert.equal(await mcp, 'always');
  assert.equal(shown.at(-1)?.kind, 'command');
  assert.ok(broker.answer(shown.at(-1)!.id, true, true));
  assert.equal(await command, 'approve', 'no always for a request that did not offer it');
  assert.equal(shown.at(-1), undefined);
  const denied = broker.ask('edit', 'Apply?', 'diff');
  broker.denyAll();
  assert.equal(await denied, false);
});
