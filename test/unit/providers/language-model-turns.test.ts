// Messages as VS Code's language models take them: the same rule as the Anthropic conversion for text
// with nothing visible (left out) and empty tool results (said to be empty), system prompt first as user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/core/messages';
import { toLanguageModelTurns } from '../../../src/core/providers/language-model-turns';

test('the system prompt goes first as user text; tool results travel together right after their action', () => {
  const turns = toLanguageModelTurns([
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the bug.' },
    {
      role: 'assistant',
      content: 'Looking.',
      toolCalls: [
        { id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { id: 'c2', name: 'grep', arguments: '{not json' },
      ],
    },
    { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'const a = 1;' },
    { role: 'tool', toolCallId: 'c2', name: 'grep', content: 'no matches' },
  ]);
  assert.deepEqual(turns, [
    {
      role: 'user',
      parts: [
        { kind: 'text', text: 'You are a coding agent.' },
        { kind: 'text', text: 'Fix the bug.' },
      ],
    },
    {
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Looking.' },
        { kind: 'tool-call', id: 'c1', name: 'read_file', input: { path: 'a.ts' } },
        { kind: 'tool-call', id: 'c2', name: 'grep', input: {} },
      ],
    },
    {
      role: 'user',
      parts: [
        { kind: 'tool-result', id: 'c1', text: 'const a = 1;' },
        { kind: 'tool-result', id: 'c2', text: 'no matches' },
      ],
    },
  ]);
});

test('blank text is left out and an empty tool result says it is empty', () => {
  const messages: Message[] = [
    { role: 'user', content: 'Fix it.' },
    { role: 'assistant', content: '\n', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'c1', name: 'run_command', content: '' },
    { role: 'assistant', content: '  \n' },
    { role: 'user', content: ' ' },
  ];
  assert.deepEqual(toLanguageModelTurns(messages), [
    { role: 'user', parts: [{ kind: 'text', text: 'Fix it.' }] },
    { role: 'assistant', parts: [{ kind: 'tool-call', id: 'c1', name: 'run_command', input: {} }] },
    { role: 'user', parts: [{ kind: 'tool-result', id: 'c1', text: '(empty output)' }] },
  ]);
});
