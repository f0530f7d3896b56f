// The agent's model providers in a real VS Code: the vscode.lm provider's message conversion and stream
// handling with VS Code's own part classes, and the panel's answer when the chosen provider cannot run.
// No language model can be reached here, so the model behind vscode.lm is a scripted LanguageModelChat.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { collectChat, type ChatRequest } from '../../src/core/agent/provider';
import { ProviderError } from '../../src/core/agent/errors';
import type { Message } from '../../src/core/messages';
import {
  LanguageModelProvider,
  selectLanguageModel,
  toLanguageModelMessages,
} from '../../src/extension/agent/lmProvider';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');

type Parts = AsyncIterable<unknown>;

/** A LanguageModelChat that answers with the given parts and records what it was sent. */
function scriptedModel(answer: (token: vscode.CancellationToken) => Parts): {
  model: vscode.LanguageModelChat;
  sent: { messages: vscode.LanguageModelChatMessage[]; options: vscode.LanguageModelChatRequestOptions }[];
} {
  const sent: { messages: vscode.LanguageModelChatMessage[]; options: vscode.LanguageModelChatRequestOptions }[] = [];
  const model = {
    name: 'Scripted',
    id: 'scripted-lm',
    vendor: 'test',
    family: 'scripted',
    version: '1',
    maxInputTokens: 100_000,
    countTokens: () => Promise.resolve(1),
    sendRequest: (
      messages: vscode.LanguageModelChatMessage[],
      options: vscode.LanguageModelChatRequestOptions = {},
      token?: vscode.CancellationToken,
    ) => {
      sent.push({ messages, options });
      const stream = answer(token ?? new vscode.CancellationTokenSource().token);
      return Promise.resolve({ stream, text: (async function* () {})() });
    },
  } as unknown as vscode.LanguageModelChat;
  return { model, sent };
}

function request(messages: Message[], signal = new AbortController().signal): ChatRequest {
  return {
    model: 'scripted-lm',
    messages,
    signal,
    tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: {} } }],
  };
}

const conversation: Message[] = [
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
  { role: 'tool', toolCallId: 'c2', name: 'grep', content: 'Old environment output: (3 lines omitted)' },
];

describe('Model providers', function () {
  this.timeout(30_000);

  after(async () => {
    for (const key of ['agent.provider', 'agent.model']) await config().update(key, undefined, 1);
  });

  it('converts messages to VS Code chat messages: system first as user, tool results together', () => {
    const out = toLanguageModelMessages(conversation);
    assert.deepEqual(
      out.map((m) => m.role),
      [
        vscode.LanguageModelChatMessageRole.User,
        vscode.LanguageModelChatMessageRole.Assistant,
        vscode.LanguageModelChatMessageRole.User,
      ],
    );
    const first = out[0]!.content.map((p) => (p as vscode.LanguageModelTextPart).value);
    assert.deepEqual(first, ['You are a coding agent.', 'Fix the bug.']);
    const calls = out[1]!.content.filter((p) => p instanceof vscode.LanguageModelToolCallPart);
    assert.deepEqual(
      calls.map((c) => [c.callId, c.name, c.input]),
      [
        ['c1', 'read_file', { path: 'a.ts' }],
        ['c2', 'grep', {}],
      ],
    );
    const results = out[2]!.content.filter((p) => p instanceof vscode.LanguageModelToolResultPart);
    assert.deepEqual(
      results.map((r) => r.callId),
      ['c1', 'c2'],
    );
  });

  it('streams text and tool calls back as the loop expects, and offers the tools', async () => {
    const { model, sent } = scriptedModel(async function* () {
      yield new vscode.LanguageModelTextPart('Reading ');
      yield new vscode.LanguageModelTextPart('the file.');
      yield new vscode.LanguageModelToolCallPart('t9', 'read_file', { path: 'b.ts', offset: 3 });
    });
    const provider = new LanguageModelProvider(() => Promise.resolve(model));
    const deltas: string[] = [];
    const result = await collectChat(provider.chat(request(conversation)), (d) => deltas.push(d));
    assert.deepEqual(deltas, ['Reading ', 'the file.']);
    assert.equal(result.text, 'Reading the file.');
    assert.deepEqual(result.toolCalls, [{ id: 't9', name: 'read_file', arguments: '{"path":"b.ts","offset":3}' }]);
    assert.equal(result.finishReason, 'tool_calls');
    assert.deepEqual(
      sent[0]!.options.tools?.map((t) => t.name),
      ['read_file'],
    );
  });

  it('Stop cancels the request and ends with an aborted error', async () => {
    let cancelled = false;
    const { model } = scriptedModel(async function* (token) {
      yield new vscode.LanguageModelTextPart('partial');
      await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
      cancelled = true;
      throw new vscode.CancellationError();
    });
    const stop = new AbortController();
    const provider = new LanguageModelProvider(() => Promise.resolve(model));
    const run = collectChat(provider.chat(request(conversation, stop.signal)), () => stop.abort());
    await assert.rejects(run, (e: unknown) => e instanceof ProviderError && e.kind === 'aborted');
    assert.ok(cancelled, 'the model saw the cancellation');
  });

  it('a refused permission is an auth error that says what to do', async () => {
    const { model } = scriptedModel(() => {
      throw vscode.LanguageModelError.NoPermissions('the user said no');
    });
    const provider = new LanguageModelProvider(() => Promise.resolve(model));
    await assert.rejects(
      collectChat(provider.chat(request(conversation))),
      (e: unknown) => e instanceof ProviderError && e.kind === 'auth' && /allow it/.test(e.message),
    );
  });

  it('with no language models in VS Code, the lookup and the panel say how to get one', async () => {
    await assert.rejects(selectLanguageModel(''), /VS Code has no language models/);
    const a = await api();
    await config().update('agent.provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('agent.model', undefined, vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    assert.equal(a.chat().snapshot.setup.ready, true, 'vscode-lm needs no model name');
    assert.ok(a.chat().send('hello').accepted);
    await waitFor(() => a.chat().snapshot.status !== 'running', 15_000, 'the run ends');
    const notices = a.chat().snapshot.items.filter((i) => i.kind === 'notice');
    assert.ok(
      notices.some((n) => n.kind === 'notice' && /no language models/.test(n.text)),
      JSON.stringify(notices),
    );
  });

  it('the anthropic provider without a stored key asks for one', async () => {
    const a = await api();
    await config().update('agent.provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await config().update('agent.model', 'claude-test', vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    assert.ok(a.chat().send('hello').accepted);
    await waitFor(() => a.chat().snapshot.status !== 'running', 15_000, 'the run ends');
    const notices = a.chat().snapshot.items.filter((i) => i.kind === 'notice');
    assert.ok(
      notices.some((n) => n.kind === 'notice' && /API key/.test(n.text) && n.action?.action === 'configure'),
      JSON.stringify(notices),
    );
    // No session took it: the message is marked not sent (its text goes back in the box), never shown as sent.
    const users = a.chat().snapshot.items.filter((i) => i.kind === 'user');
    assert.deepEqual(
      users.map((u) => u.kind === 'user' && [u.text, u.notSent === true]),
      [['hello', true]],
    );
  });
});
