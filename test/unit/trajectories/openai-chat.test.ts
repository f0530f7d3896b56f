import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';

async function chat(body: object): Promise<Trajectory> {
  const file = join(mkdtempSync(join(tmpdir(), 'cd-chat-')), 'chat.json');
  writeFileSync(file, JSON.stringify(body));
  const [t] = await loadTrajectoryFile(file);
  return t!;
}

// The Chat Completions API's custom tools (openai-node: ChatCompletionMessageCustomToolCall,
// `{type: 'custom', id, custom: {name, input}}`) carry free text, not JSON arguments.
test('OpenAI chat: a custom tool call is read with its name and input (the log was refused: "no function name")', async () => {
  const t = await chat({
    model: 'gpt-5',
    messages: [
      { role: 'user', content: 'Add a README' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'custom',
            custom: { name: 'apply_patch', input: '*** Begin Patch\n*** Add File: README.md\n+hi\n*** End Patch' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Done' },
      { role: 'assistant', content: 'Added.' },
    ],
  });
  assert.deepEqual(t.messages[1]!.toolCalls, [
    { id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch\n*** Add File: README.md\n+hi\n*** End Patch' },
  ]);
  assert.equal(t.messages[2]!.toolCallId, 'call_1');
});

// The legacy function-calling shape (`function_call` on the assistant message, a `function` message with
// the result) that older chat logs keep: the call's arguments were sent back with every later request.
test("OpenAI chat: a legacy function_call is the reply's tool call, not dropped", async () => {
  const t = await chat({
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { role: 'function', name: 'get_weather', content: '18 C' },
      { role: 'assistant', content: 'It is 18 C.' },
    ],
  });
  assert.equal(t.messages[1]!.toolCalls?.length, 1);
  assert.equal(t.messages[1]!.toolCalls![0]!.name, 'get_weather');
  assert.equal(t.messages[1]!.toolCalls![0]!.arguments, '{"city":"Paris"}');
  assert.equal(t.messages[2]!.role, 'tool');
  assert.equal(t.messages[2]!.name, 'get_weather');
});

// LiteLLM's message (what mini-swe-agent 2 and SWE-agent keep) carries the reply's reasoning as
// `reasoning_content` and, for Claude, signed `thinking_blocks` that LiteLLM sends back within a tool-use
// loop: neither is in `content`, and what the provider counted for them is not in the log.
test("OpenAI chat: a reply's reasoning (reasoning_content, thinking_blocks) is said not to be counted", async () => {
  const t = await chat({
    messages: [
      { role: 'user', content: 'Fix the test' },
      {
        role: 'assistant',
        content: 'Running it.',
        reasoning_content: 'The test fails on import; run it first.',
        thinking_blocks: [{ type: 'thinking', thinking: 'The test fails on import; run it first.', signature: 'sig' }],
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"pytest"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1 passed' },
      { role: 'assistant', content: 'Done.' },
    ],
  });
  assert.equal(t.messages[1]!.content, 'Running it.');
  assert.match(t.warnings!.join('\n'), /1 reply's reasoning \(reasoning_content, thinking_blocks\) not counted/);
});
