// The provider port over VS Code's own language models (`vscode.lm`): whatever chat models the user has
// (Copilot, or any extension that contributes one). Glue only: messages in, stream events out.
import * as vscode from 'vscode';
import type { Message } from '../../core/messages';
import type { ChatProvider, ChatRequest, ChatStreamEvent, ToolSpec } from '../../core/agent/provider';
import { ProviderError, type ProviderErrorKind } from '../../core/agent/errors';
import { toLanguageModelTurns } from '../../core/providers/language-model-turns';

/** Finds the chat model: by id, then by family; an empty selector takes the first one VS Code offers. */
export type ModelLookup = (selector: string) => Promise<vscode.LanguageModelChat>;

export async function selectLanguageModel(selector: string): Promise<vscode.LanguageModelChat> {
  const all = await vscode.lm.selectChatModels();
  const model =
    selector === '' ? all[0] : (all.find((m) => m.id === selector) ?? all.find((m) => m.family === selector));
  if (model) return model;
  const names = all.map((m) => m.id).join(', ');
  throw new ProviderError({
    kind: 'bad-request',
    message:
      all.length === 0
        ? 'VS Code has no language models: install and sign in to an extension that provides one (e.g. GitHub Copilot), or choose another provider in contextDesk.agent.provider.'
        : `No VS Code language model matches '${selector}'. Available: ${names}. Set contextDesk.agent.model to one of them.`,
  });
}

/** Our messages as VS Code chat messages (the turns are worked out in core: language-model-turns.ts). */
export function toLanguageModelMessages(messages: readonly Message[]): vscode.LanguageModelChatMessage[] {
  const text = (p: { text: string }): vscode.LanguageModelTextPart => new vscode.LanguageModelTextPart(p.text);
  return toLanguageModelTurns(messages).map((turn) =>
    turn.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(
          turn.parts.map((p) =>
            p.kind === 'text' ? text(p) : new vscode.LanguageModelToolCallPart(p.id, p.name, p.input),
          ),
        )
      : vscode.LanguageModelChatMessage.User(
          turn.parts.map((p) =>
            p.kind === 'text' ? text(p) : new vscode.LanguageModelToolResultPart(p.id, [text(p)]),
          ),
        ),
  );
}

function toLanguageModelTools(tools: readonly ToolSpec[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

export function classifyLanguageModelError(e: unknown, signal: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal.aborted || e instanceof vscode.CancellationError)
    return new ProviderError({ kind: 'aborted', message: 'Stopped' }, { cause: e });
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof vscode.LanguageModelError) {
    const byCode: Record<string, [ProviderErrorKind, string]> = {
      NoPermissions: ['auth', 'Context Desk is not allowed to use this language model; allow it when VS Code asks'],
      Blocked: ['rate-limit', 'The language model is blocked for now (quota or rate limit)'],
      NotFound: ['bad-request', 'The language model is gone; choose another in contextDesk.agent.model'],
    };
    const [kind, text] = byCode[e.code] ?? ['server', 'The language model failed'];
    return new ProviderError({ kind, message: `${text}: ${message}` }, { cause: e });
  }
  if (/context|too long|token limit/i.test(message) && /exceed|too long|limit/i.test(message))
    return new ProviderError({ kind: 'context-overflow', message }, { cause: e });
  return new ProviderError({ kind: 'server', message: `The language model failed: ${message}` }, { cause: e });
}

export class LanguageModelProvider implements ChatProvider {
  readonly id = 'vscode-lm';
  // sendRequest takes no output limit: the agent cuts the stream itself (output-limited.ts).
  readonly ignoresOutputLimit = true;

  constructor(private readonly lookup: ModelLookup = selectLanguageModel) {}

  async *chat(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    if (request.signal.aborted) cancel.cancel();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    const calls: ChatStreamEvent[] = [];
    try {
      const model = await this.lookup(request.model);
      const response = await model.sendRequest(
        toLanguageModelMessages(request.messages),
        {
          justification: 'The Context Desk agent works on the task you gave it in the Agent panel.',
          ...(request.tools.length > 0 ? { tools: toLanguageModelTools(request.tools) } : {}),
        },
        cancel.token,
      );
      for await (const part of response.stream) {
        if (request.signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) yield { type: 'text-delta', text: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart)
          calls.push({
            type: 'tool-call',
            call: { id: part.callId, name: part.name, arguments: JSON.stringify(part.input) },
          });
      }
    } catch (e) {
      throw classifyLanguageModelError(e, request.signal);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      cancel.cancel(); // left early (an output limit reached): the model stops writing
      cancel.dispose();
    }
    if (request.signal.aborted) throw new ProviderError({ kind: 'aborted', message: 'Stopped' });
    yield* calls;
    // vscode.lm reports no usage: the loop counts tokens itself.
    yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
  }
}
