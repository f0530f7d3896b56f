import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOLS_USED_PREFIX } from '../../../src/core/strategies/retry-filter';
import { harness, readSteps } from './helpers';

test('a malformed tool call is retried with retry filtering: tool traffic dropped, a tools-used line kept', async () => {
  const h = await harness([...readSteps(3), { fault: 'malformed-tool-call' }, { reply: { text: 'Done.' } }]);
  try {
    assert.equal(await h.agent.send('Fix it'), 'completed');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 5);
    const retried = reqs[4]!;
    assert.equal(retried.messages.filter((m) => m.role === 'tool').length, 0);
    assert.equal(retried.messages.filter((m) => m.tool_calls).length, 0);
    const line = retried.messages.at(-1)!;
    assert.equal(line.role, 'user');
    assert.ok(line.content!.startsWith(TOOLS_USED_PREFIX));
    assert.ok(line.content!.includes('read_file(path="src/file0.ts")'));
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

test('429 honours retry-after (capped) and resends the same context', async () => {
  const waits: number[] = [];
  const h = await harness([...readSteps(2), { fault: 'rate-limit', retryAfter: 120 }, { reply: { text: 'Done.' } }], {
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    retry: { retryAfterCapMs: 5_000 },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    assert.deepEqual(waits, [5_000]);
    const reqs = h.server.chatRequests();
    assert.deepEqual(reqs[3]!.messages, reqs[2]!.messages);
    const err = h.events.find((e) => e.type === 'error');
    assert.ok(err && err.type === 'error' && err.error.kind === 'rate-limit' && err.error.retryAfterMs === 120_000);
  } finally {
    await h.close();
  }
});

test('500 retried with backoff until exhausted ends with a classified server error', async () => {
  const waits: number[] = [];
  const h = await harness(
    Array.from({ length: 4 }, () => ({ fault: 'server-error' as const })),
    {
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      retry: { maxRetries: 3, baseDelayMs: 100 },
    },
  );
  try {
    assert.equal(await h.agent.send('Go'), 'error');
    assert.deepEqual(waits, [100, 200, 400]);
    assert.equal(h.server.chatRequests().length, 4);
    const errors = h.events.filter((e) => e.type === 'error');
    assert.equal(errors.length, 4);
    assert.ok(errors.every((e) => e.type === 'error' && e.error.kind === 'server' && e.error.status === 500));
    const stopped = h.events.at(-1)!;
    assert.ok(stopped.type === 'stopped' && stopped.reason === 'error' && /server error/.test(stopped.message));
  } finally {
    await h.close();
  }
});

test('401 is not retried and says how to fix it', async () => {
  const h = await harness([{ fault: 'auth' }, { reply: { text: 'never' } }]);
  try {
    assert.equal(await h.agent.send('Go'), 'error');
    assert.equal(h.server.chatRequests().length, 1);
    const err = h.events.find((e) => e.type === 'error');
    assert.ok(err && err.type === 'error' && err.error.kind === 'auth' && /Set API Key/.test(err.error.message));
  } finally {
    await h.close();
  }
});

test('a context overflow is retried once, filtered', async () => {
  const h = await harness([...readSteps(1), { fault: 'context-overflow' }, { fault: 'context-overflow' }]);
  try {
    assert.equal(await h.agent.send('Go'), 'error');
    const reqs = h.server.chatRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[2]!.messages.filter((m) => m.role === 'tool').length, 0);
    const kinds = h.events.flatMap((e) => (e.type === 'error' ? [e.error.kind] : []));
    assert.deepEqual(kinds, ['context-overflow', 'context-overflow']);
  } finally {
    await h.close();
  }
});

test('a server that is not there is a network error, retried, then reported', async () => {
  const h = await harness([], { retry: { maxRetries: 1 } });
  await h.close();
  assert.equal(await h.agent.send('Go'), 'error');
  const kinds = h.events.flatMap((e) => (e.type === 'error' ? [e.error.kind] : []));
  assert.deepEqual(kinds, ['network', 'network']);
  assert.equal(h.events.filter((e) => e.type === 'retry').length, 1);
});
