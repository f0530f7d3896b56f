import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRequest } from '../../../src/core/budget';
import { ToolRegistry, type AgentTool } from '../../../src/core/agent/tool-registry';
import { abortableSleep } from '../../../src/core/agent/sleep';
import { echoTool, harness, readSteps } from './helpers';

test('a hard budget stops the run before the call that would pass it', async () => {
  const h = await harness([...readSteps(30), { reply: { text: 'Done.' } }], {
    budget: { session: { limit: 3000, mode: 'hard' } },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'budget');
    const state = h.agent.state();
    const sent = state.calls.reduce((n, c) => n + c.tokensSent + c.outputTokens, 0);
    assert.ok(sent <= 3000, `spent ${sent}`);
    assert.ok(h.server.chatRequests().length < 31);
    assert.equal(h.server.chatRequests().length, state.calls.length, 'the refused call was never sent');
    const refused = h.events.find((e) => e.type === 'budget' && e.event.type === 'exceeded');
    assert.ok(refused && refused.type === 'budget' && refused.event.type === 'exceeded' && refused.event.refused);
    const last = h.events.at(-1)!;
    assert.ok(last.type === 'stopped' && last.reason === 'budget' && /session budget/.test(last.message));
  } finally {
    await h.close();
  }
});

/** Holds the first approval request until answered; later ones get the same answer at once. */
function approvalGate(): {
  port: { requestApproval(r: ApprovalRequest): Promise<boolean> };
  asked: Promise<ApprovalRequest>;
  answer(ok: boolean): void;
  count(): number;
} {
  let answer!: (ok: boolean) => void;
  let asked!: (r: ApprovalRequest) => void;
  let given: boolean | undefined;
  let count = 0;
  const askedP = new Promise<ApprovalRequest>((r) => (asked = r));
  const first = new Promise<boolean>((resolve) => (answer = resolve));
  return {
    port: {
      requestApproval: (r) => {
        count++;
        asked(r);
        return given === undefined ? first : Promise.resolve(given);
      },
    },
    asked: askedP,
    answer: (ok) => {
      given = ok;
      answer(ok);
    },
    count: () => count,
  };
}

for (const approve of [true, false]) {
  test(`approval mode pauses until ${approve ? 'approved (then continues)' : 'denied (then stops)'}`, async () => {
    const gate = approvalGate();
    const h = await harness([...readSteps(12), { reply: { text: 'Done.' } }], {
      budget: { session: { limit: 2500, mode: 'approval' }, approval: gate.port, backpressure: [] },
    });
    try {
      const run = h.agent.send('Go');
      const request = await gate.asked;
      assert.equal(request.level, 'session');
      const before = h.server.chatRequests().length;
      const answeredAt = Date.now();
      gate.answer(approve);
      const status = await run;
      // Nothing was sent while the approval was pending: every later request came after the answer.
      assert.ok(h.server.requests.slice(before).every((r) => r.at >= answeredAt));
      if (approve) {
        assert.equal(status, 'completed');
        assert.equal(h.server.chatRequests().length, 13);
      } else {
        assert.equal(status, 'budget');
        assert.equal(h.server.chatRequests().length, before);
      }
      assert.ok(
        h.events.some(
          (e) => e.type === 'budget' && e.event.type === (approve ? 'approval-granted' : 'approval-denied'),
        ),
      );
      assert.ok(approve ? gate.count() > 1 : gate.count() === 1, 'every spend past the limit is asked about');
    } finally {
      await h.close();
    }
  });
}

test('Stop mid-stream ends cleanly: the text streamed so far kept, no partial action, stopped event, nothing more sent', async () => {
  const h = await harness([...readSteps(2), { fault: 'hang', text: 'Let me think' }, { reply: { text: 'never' } }]);
  try {
    const ac = new AbortController();
    h.agent.on((e) => {
      if (e.type === 'text-delta' && e.text.includes('think')) ac.abort();
    });
    const started = Date.now();
    assert.equal(await h.agent.send('Go', ac.signal), 'aborted');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(h.server.chatRequests().length, 3);
    const state = h.agent.state();
    assert.equal(state.status, 'aborted');
    // The panel showed what streamed: the conversation keeps it too (text only, no tool call).
    assert.deepEqual(state.messages.at(-1), { role: 'assistant', content: 'Let me think', origin: 'agent' });
    const last = h.events.at(-1)!;
    assert.ok(last.type === 'stopped' && last.reason === 'aborted');
    // The session can go on after a stop: the next message is answered, from the same history.
    assert.equal(await h.agent.send('Go on'), 'completed');
    const next = h.server.chatRequests()[3]!;
    assert.deepEqual(
      next.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.equal(next.messages.at(-2)!.content, 'Let me think');
    assert.equal(next.messages.at(-1)!.content, 'Go on');
    assert.equal(h.agent.state().messages.at(-1)!.content, 'never');
    assert.equal(h.agent.state().status, 'completed');
  } finally {
    await h.close();
  }
});

test('Stop during a tool run cancels it and keeps the history valid (every call answered)', async () => {
  let sawSignal = false;
  const slow: AgentTool = {
    name: 'slow',
    description: 'Waits until stopped',
    inputSchema: { type: 'object', properties: {} },
    run: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          sawSignal = true;
          reject(new Error('aborted'));
        });
      }),
  };
  const h = await harness(
    [
      {
        reply: {
          toolCalls: [
            { name: 'slow', arguments: {} },
            { name: 'read_file', arguments: { path: 'a' } },
          ],
        },
      },
    ],
    { tools: new ToolRegistry([echoTool, slow]) },
  );
  try {
    const ac = new AbortController();
    h.agent.on((e) => {
      if (e.type === 'tool-call-started' && e.tool === 'slow') setTimeout(() => ac.abort(), 20);
    });
    assert.equal(await h.agent.send('Go', ac.signal), 'aborted');
    assert.ok(sawSignal);
    const tools = h.agent.state().messages.filter((m) => m.role === 'tool');
    assert.equal(tools.length, 2);
    assert.ok(tools.every((m) => m.content.includes('Cancelled')));
    const statuses = h.events.flatMap((e) => (e.type === 'tool-call-finished' ? [e.status] : []));
    assert.deepEqual(statuses, ['cancelled', 'cancelled']);
  } finally {
    await h.close();
  }
});

test('Stop during a retry-after wait ends at once', async () => {
  const h = await harness([{ fault: 'rate-limit', retryAfter: 20 }, { reply: { text: 'never' } }], {
    sleep: abortableSleep,
  });
  try {
    const ac = new AbortController();
    h.agent.on((e) => {
      if (e.type === 'retry') setTimeout(() => ac.abort(), 10);
    });
    const started = Date.now();
    assert.equal(await h.agent.send('Go', ac.signal), 'aborted');
    assert.ok(Date.now() - started < 2_000);
    assert.equal(h.server.chatRequests().length, 1);
  } finally {
    await h.close();
  }
});

test('backpressure delays calls near the limit (events say how long) and Stop cuts the wait short', async () => {
  const h = await harness([...readSteps(30), { reply: { text: 'Done.' } }], {
    sleep: abortableSleep,
    budget: { session: { limit: 40_000, mode: 'soft' }, backpressure: [{ at: 0.3, delayMs: 60_000 }] },
  });
  try {
    const ac = new AbortController();
    h.agent.on((e) => {
      if (e.type === 'budget' && e.event.type === 'backpressure') setTimeout(() => ac.abort(), 20);
    });
    const started = Date.now();
    assert.equal(await h.agent.send('Go', ac.signal), 'aborted');
    assert.ok(Date.now() - started < 5_000, 'the 60 s backpressure wait did not hold the Stop');
    const bp = h.events.find((e) => e.type === 'budget' && e.event.type === 'backpressure');
    assert.ok(bp && bp.type === 'budget' && bp.event.type === 'backpressure' && bp.event.delayMs === 60_000);
    const sent = h.server.chatRequests().length;
    assert.equal(h.agent.state().calls.length, sent, 'the delayed call was never sent');
  } finally {
    await h.close();
  }
});

test('Stop while a budget approval is pending ends the run at once', async () => {
  let asked = 0;
  const h = await harness([...readSteps(12), { reply: { text: 'Done.' } }], {
    budget: {
      session: { limit: 2500, mode: 'approval' },
      approval: {
        requestApproval: () => (++asked === 1 ? new Promise<boolean>(() => undefined) : Promise.resolve(false)),
      },
      backpressure: [],
    },
  });
  try {
    const ac = new AbortController();
    h.agent.on((e) => {
      if (e.type === 'budget' && e.event.type === 'approval-requested') setTimeout(() => ac.abort(), 20);
    });
    assert.equal(await h.agent.send('Go', ac.signal), 'aborted');
    // The dead prompt was answered "no": the budget is not stuck, the next run asks again and is refused.
    const denied = h.events.filter((e) => e.type === 'budget' && e.event.type === 'approval-denied');
    assert.equal(denied.length, 1);
    assert.equal(await h.agent.send('Go on'), 'budget');
    assert.equal(asked, 2);
  } finally {
    await h.close();
  }
});

test('a soft budget warns at 80 % and when passed, and the run goes on', async () => {
  const h = await harness([...readSteps(8), { reply: { text: 'Done.' } }], {
    budget: { session: { limit: 3000, mode: 'soft' }, backpressure: [] },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    const kinds = h.events.flatMap((e) => (e.type === 'budget' ? [e.event.type] : []));
    assert.ok(kinds.includes('warning'));
    assert.ok(kinds.includes('exceeded'));
    assert.ok(h.events.every((e) => e.type !== 'budget' || e.event.type !== 'exceeded' || !e.event.refused));
    assert.equal(h.server.chatRequests().length, 9);
  } finally {
    await h.close();
  }
});
