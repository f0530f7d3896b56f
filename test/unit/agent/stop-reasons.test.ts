// A reply's stop reason is read: one cut at the output limit warns (and a tool call it cut is answered
// with a note, never run nor resent as it was), a refusal warns, a cut summary is kept but marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/core/agent/events';
import { createModelSummarizer, CUT_SUMMARY_MARK } from '../../../src/core/agent/model-summarizer';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/core/agent/provider';
import { AgentSession } from '../../../src/core/agent/session';
import { CUT_CALL_TEXT, EMPTY_ANSWER } from '../../../src/core/agent/stop-reason';
import { ToolRegistry, type AgentTool } from '../../../src/core/agent/tool-registry';
import type { ToolCall } from '../../../src/core/messages';
import { createTokenizer } from '../../../src/core/tokens';

interface Reply {
  text?: string;
  calls?: ToolCall[];
  finish: string;
}

/** A provider answering each request with the next reply (the last one repeats); it keeps the requests. */
function scripted(replies: Reply[]): ChatProvider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: 'scripted',
    requests,
    async *chat(request): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      const r = replies[Math.min(requests.length, replies.length - 1)]!;
      requests.push(request);
      if (r.text) yield { type: 'text-delta', text: r.text };
      yield { type: 'usage', usage: { inputTokens: 100, outputTokens: 50 } };
      for (const call of r.calls ?? []) yield { type: 'tool-call', call };
      yield { type: 'finish', reason: r.finish };
    },
  };
}

function setup(replies: Reply[]) {
  const provider = scripted(replies);
  const ran: string[] = [];
  const write: AgentTool = {
    name: 'write_file',
    description: 'Writes a file',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
    run: (args) => {
      ran.push(String(args.path));
      return Promise.resolve({ ok: true, text: `wrote ${String(args.path)}` });
    },
  };
  const agent = new AgentSession({
    provider,
    model: 'm',
    tools: new ToolRegistry([write]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    sleep: () => Promise.resolve(),
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  const warnings = () => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  return { agent, provider, events, ran, warnings };
}

const cutCall = (id: string): ToolCall => ({
  id,
  name: 'write_file',
  arguments: '{"path":"big.ts","content":"export const x = 1;\\nexport fun',
});
const wholeCall = (id: string, path: string): ToolCall => ({
  id,
  name: 'write_file',
  arguments: JSON.stringify({ path, content: 'x' }),
});

for (const finish of ['length', 'max_tokens'])
  test(`a text answer cut at the output limit (${finish}) is kept with a warning`, async () => {
    const { agent, warnings } = setup([{ text: 'Here is the plan: first we refactor the', finish }]);
    assert.equal(await agent.send('Explain the plan'), 'completed');
    assert.equal(agent.messages.at(-1)!.content, 'Here is the plan: first we refactor the');
    assert.equal(warnings().length, 1);
    assert.match(warnings()[0]!, /cut at the output limit/);
  });

test('a tool call cut by the output limit is not resent as it was nor run: the model is told to write less', async () => {
  const { agent, provider, events, ran, warnings } = setup([
    { text: 'Writing two files.', calls: [wholeCall('c1', 'small.ts'), cutCall('c2')], finish: 'length' },
    { text: 'Done in smaller pieces.', finish: 'stop' },
  ]);
  assert.equal(await agent.send('Write the files'), 'completed');
  assert.equal(provider.requests.length, 2);
  assert.equal(events.filter((e) => e.type === 'retry').length, 0, 'no retry: the same request would be cut again');
  assert.deepEqual(ran, ['small.ts'], 'the finished call runs, the cut one does not');
  const second = provider.requests[1]!.messages;
  const cutResult = second.find((m) => m.role === 'tool' && m.toolCallId === 'c2');
  assert.equal(cutResult?.content, CUT_CALL_TEXT);
  assert.ok(!second.some((m) => /invalid tool call/.test(m.content)), 'no invalid-call note');
  assert.equal(warnings().length, 1);
  assert.match(warnings()[0]!, /cut at the output limit .* tool call: that call was not run/);
  assert.match(
    warnings()[0]!,
    /The tool call it finished before the cut runs\.$/,
    'the user is told small.ts is written',
  );
  const finished = events.find((e) => e.type === 'tool-call-finished' && e.callId === 'c2');
  assert.equal(finished?.type === 'tool-call-finished' && finished.status, 'invalid');
});

test('replies cut mid tool call three times in a row end the run', async () => {
  const { agent, provider, events, ran } = setup([{ calls: [cutCall('c')], finish: 'max_tokens' }]);
  assert.equal(await agent.send('Write big.ts'), 'error');
  assert.equal(provider.requests.length, 3);
  assert.deepEqual(ran, []);
  const stopped = events.at(-1);
  assert.ok(stopped?.type === 'stopped' && /cut at the output limit 3 times/.test(stopped.message));
});

for (const finish of ['refusal', 'content_filter'])
  test(`a refusal (${finish}) warns instead of ending as a silent empty answer`, async () => {
    const { agent, warnings } = setup([{ finish }]);
    assert.equal(await agent.send('Do something'), 'completed');
    assert.equal(warnings().length, 1);
    assert.match(warnings()[0]!, finish === 'refusal' ? /refused this request/ : /content filter/);
  });

test('a complete answer brings no warning', async () => {
  const { agent, warnings } = setup([{ text: 'All done.', finish: 'stop' }]);
  assert.equal(await agent.send('hi'), 'completed');
  assert.deepEqual(warnings(), []);
});

test('a summary cut at its output limit is kept, marked as cut, and reported', async () => {
  for (const [finish, cut] of [
    ['length', true],
    ['stop', false],
  ] as const) {
    let reported = 0;
    const summarizer = createModelSummarizer({
      provider: scripted([{ text: 'USER_CONTEXT: fix the bug\nCOMPLETED: read a.ts, b', finish }]),
      model: 'small',
      tokenizer: createTokenizer('o200k'),
      summaryTokens: 10,
      signal: () => new AbortController().signal,
      onCut: () => reported++,
    });
    const summary = await summarizer.summarize([{ role: 'user', content: 'ran pytest' }], undefined);
    assert.ok(summary.startsWith('USER_CONTEXT: fix the bug\nCOMPLETED: read a.ts, b'));
    assert.equal(summary.endsWith(CUT_SUMMARY_MARK), cut, finish);
    assert.equal(reported, cut ? 1 : 0);
  }
});

for (const text of [undefined, ' \n\t'])
  test(`an empty answer (${JSON.stringify(text)}) completes with a warning that says so`, async () => {
    const { agent, events, warnings } = setup([{ ...(text === undefined ? {} : { text }), finish: 'stop' }]);
    assert.equal(await agent.send('Summarize the README.'), 'completed');
    assert.deepEqual(warnings(), [EMPTY_ANSWER]);
    assert.ok(events.some((e) => e.type === 'done' && e.reason === 'completed'));
  });

test('an answer with text, or with only a tool call, gets no empty-answer warning', async () => {
  const { agent, warnings } = setup([
    { calls: [wholeCall('c1', 'a.ts')], finish: 'tool_calls' },
    { text: 'Done.', finish: 'stop' },
  ]);
  assert.equal(await agent.send('Write a.ts.'), 'completed');
  assert.deepEqual(warnings(), []);
});
