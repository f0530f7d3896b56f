// Earlier tool calls go back to OpenAI-compatible servers with arguments that are one JSON object: a
// server that parses them (vLLM's chat templates) must not refuse every request after a broken call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { argumentsText, toOpenAIMessages } from '../../../src/core/providers/openai-messages';

function sentArguments(args: string): string {
  const [m] = toOpenAIMessages([
    { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'write_file', arguments: args }] },
  ]);
  assert.ok(m?.role === 'assistant' && m.tool_calls);
  const call = m.tool_calls[0]!;
  assert.ok(call.type === 'function');
  return call.function.arguments;
}

test("a call's broken JSON is sent wrapped as an object; valid arguments are sent as written", () => {
  const cut = '{"path":"a.ts","content":"export const x = 1;\\nexport fun';
  assert.deepEqual(JSON.parse(sentArguments(cut)), { _unparsed_arguments: cut });
  assert.deepEqual(JSON.parse(sentArguments('[1, 2]')), { _unparsed_arguments: '[1, 2]' });
  assert.equal(sentArguments(''), '{}');
  assert.equal(sentArguments('{ "path" : "a.ts" }'), '{ "path" : "a.ts" }', 'byte for byte: the prefix cache');
  const deep = `{"a":${'['.repeat(300)}${']'.repeat(300)}}`;
  assert.deepEqual(JSON.parse(sentArguments(deep)), { _unparsed_arguments: deep });
});

test('whatever the model wrote, the arguments sent parse as a JSON object', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json()), (args) => {
      const v: unknown = JSON.parse(argumentsText(args));
      assert.ok(typeof v === 'object' && v !== null && !Array.isArray(v));
    }),
  );
});
