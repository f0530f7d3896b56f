import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OVERFLOW_NOTE } from '../../../src/core/agent/retry-policy';
import { TOOLS_USED_PREFIX } from '../../../src/core/strategies/retry-filter';
import { harness, readSteps } from './helpers';

// Retries that change what is sent: after an invalid tool call or a context overflow, tool traffic is
// dropped (retry filtering), one line names the tools used, and a note says why. Transient failures,
// which resend the same context, are in transient-errors.test.ts.

test('a malformed tool call is retried with retry filtering: tool traffic dropped, a tools-used line kept', async () => {
  const h = await harness([...readSteps(3), { fault: 'malformed-tool-call' }, { reply: { text: 'Done.' } }]);
  try {
    assert.equal(await h.agent.send('Fix it'), 'completed');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 5);
    const retried = reqs[4]!;
    assert.equal(retried.messages.filter((m) => m.role === 'tool').length, 0);
    assert.equal(retried.messages.filter((m) => m.tool_calls).length, 0);
    const [line, note] = retried.messages.slice(-2);
    assert.equal(line!.role, 'user');
    assert.ok(line!.content!.startsWith(TOOLS_USED_PREFIX));
    assert.ok(line!.content!.includes('read_file(path="src/file0.ts")'));
    // The corrective note says what was wrong, and the task is still there, verbatim.
    assert.match(note!.content!, /^Note: your previous reply had an invalid tool call \(malformed-json "read_file"\)/);
    assert.ok(retried.messages.some((m) => m.role === 'user' && m.content === 'Fix it'));
    // The malformed call never entered the history.
    const state = h.agent.state();
    assert.ok(state.messages.every((m) => (m.toolCalls ?? []).every((c) => c.arguments.endsWith('}'))));
    const retry = h.events.find((e) => e.type === 'retry');
    assert.ok(retry && retry.type === 'retry' && retry.filtered && retry.reason.includes('malformed-json'));
    assert.equal(state.calls.filter((c) => c.retry).length, 1);
  } finally {
    await h.close();
  }
});

test('an unknown tool is retried; when retries are used up the model gets an error result naming the tools', async () => {
  const unknown = { reply: { toolCalls: [{ name: 'delete_everything', arguments: {} }] } };
  const h = await harness([unknown, unknown, unknown, { reply: { text: 'Sorry.' } }]);
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    assert.equal(h.server.chatRequests().length, 4);
    const toolMsg = h.agent.state().messages.find((m) => m.role === 'tool')!;
    assert.match(toolMsg.content, /There is no tool "delete_everything". Available tools: read_file/);
    const finished = h.events.find((e) => e.type === 'tool-call-finished');
    assert.ok(finished && finished.type === 'tool-call-finished' && finished.status === 'invalid');
  } finally {
    await h.close();
  }
});

test('arguments that break the schema are answered with the ajv error, without a retry', async () => {
  const h = await harness([
    { reply: { toolCalls: [{ name: 'read_file', arguments: { file: 'x' } }] } },
    { reply: { text: 'ok' } },
  ]);
  try {
    await h.agent.send('Go');
    assert.equal(h.server.chatRequests().length, 2);
    const toolMsg = h.agent.state().messages.find((m) => m.role === 'tool')!;
    assert.match(toolMsg.content, /do not match its schema/);
    assert.match(toolMsg.content, /path/);
    assert.equal(h.events.filter((e) => e.type === 'retry').length, 0);
  } finally {
    await h.close();
  }
});

test('a context overflow is retried once, filtered, with a note; a second overflow ends the run', async () => {
  const h = await harness([...readSteps(1), { fault: 'context-overflow' }, { fault: 'context-overflow' }]);
  try {
    assert.equal(await h.agent.send('Go'), 'error');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[2]!.messages.filter((m) => m.role === 'tool').length, 0);
    assert.equal(reqs[2]!.messages.at(-1)!.content, OVERFLOW_NOTE);
    assert.ok(reqs[2]!.messages.at(-2)!.content!.startsWith(TOOLS_USED_PREFIX));
    const kinds = h.events.flatMap((e) => (e.type === 'error' ? [e.error.kind] : []));
    assert.deepEqual(kinds, ['context-overflow', 'context-overflow']);
    const retries = h.events.flatMap((e) => (e.type === 'retry' ? [e] : []));
    assert.deepEqual(
      retries.map((r) => [r.reason, r.delayMs, r.filtered]),
      [['context-overflow', 0, true]],
    );
    // Overflows were answered by the server (HTTP 400): counted as calls, billed nothing (no usage).
    const calls = h.agent.state().calls;
    assert.equal(calls.length, 3);
    assert.deepEqual(
      calls.slice(1).map((c) => c.cost),
      [0, 0],
    );
  } finally {
    await h.close();
  }
});
