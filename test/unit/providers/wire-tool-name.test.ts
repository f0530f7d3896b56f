// A tool name the model made up ('functions.read_file', a space, hundreds of characters) is kept in the
// conversation once its retries run out. OpenAI refuses every later request whose history carries a name
// outside its pattern ("'messages[3].tool_calls[0].function.name': string does not match pattern"), so
// the chat could not go on, nor a resume of it. Every provider gets a name in the pattern instead.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { toOpenAIMessages } from '../../../src/core/providers/openai-messages';
import { toAnthropicRequest } from '../../../src/core/providers/anthropic-messages';
import { toLanguageModelTurns } from '../../../src/core/providers/language-model-turns';
import { wireToolName } from '../../../src/core/providers/wire-tool-name';
import { assertLinearGrowth } from '../../support/linear-growth';

const PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const conversation = (name: string): Message[] => [
  { role: 'user', content: 'read a.ts' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name, arguments: '{"path":"a.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', name, content: `There is no tool "${name}".` },
];

function sentNames(name: string): string[] {
  const messages = conversation(name);
  const openai = toOpenAIMessages(messages).flatMap((m) =>
    m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => (c.type === 'function' ? c.function.name : '')) : [],
  );
  const anthropic = toAnthropicRequest(messages).messages.flatMap((m) =>
    (m.content as { type: string; name?: string }[]).filter((b) => b.type === 'tool_use').map((b) => b.name!),
  );
  const lm = toLanguageModelTurns(messages).flatMap((t) =>
    t.parts.flatMap((p) => (p.kind === 'tool-call' ? [p.name] : [])),
  );
  assert.equal(openai.length + anthropic.length + lm.length, 3, 'each provider gets the call');
  return [...openai, ...anthropic, ...lm];
}

test('a made-up tool name reaches every provider in its pattern', () => {
  for (const name of ['functions.read_file', 'read file', 'x'.repeat(300), '', 'ツール', 'repo_browser.open_file'])
    for (const sent of sentNames(name)) assert.match(sent, PATTERN, JSON.stringify(name.slice(0, 40)));
  assert.deepEqual(sentNames('functions.read_file'), Array(3).fill('functions_read_file'), 'still readable');
});

test('property: any name is sent in the pattern, and a name in it is sent as it is', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 100 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)), (name) => {
      for (const sent of sentNames(name)) {
        assert.match(sent, PATTERN);
        if (PATTERN.test(name)) assert.equal(sent, name);
      }
    }),
  );
});

test('a huge made-up name is read in linear time (the model writes it)', () => {
  for (const input of [(n: number) => 'a'.repeat(n), (n: number) => 'a.'.repeat(n / 2), (n: number) => '.'.repeat(n)])
    assertLinearGrowth(input, 1_000_000, (name) => assert.match(wireToolName(name), PATTERN));
});
