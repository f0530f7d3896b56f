// Which model the agent talks to, from the settings: the provider, its key, the panel's label and what
// to tell the user when something is missing.
import type * as vscode from 'vscode';
import type { ChatProvider } from '../../core/agent/provider';
import { AnthropicProvider } from '../../core/providers/anthropic';
import { OpenAICompatibleProvider } from '../../core/providers/openai';
import { apiKeyFor, currentEndpoint } from './apiKeys';
import type { Settings } from '../settings';
import { LanguageModelProvider } from './lmProvider';

export type ProviderKind = 'openai-compatible' | 'anthropic' | 'vscode-lm';

/** The `agent.provider` setting; an unknown value falls back to the default. */
export function providerKind(value: string): ProviderKind {
  return value === 'anthropic' || value === 'vscode-lm' ? value : 'openai-compatible';
}

export async function createProvider(s: Settings, secrets: vscode.SecretStorage): Promise<ChatProvider> {
  const kind = providerKind(s['agent.provider']);
  if (kind === 'vscode-lm') return new LanguageModelProvider();
  // Bound to the origin it was set for: another origin (e.g. from a cloned workspace's settings) asks first.
  const apiKey = await apiKeyFor(secrets, kind, currentEndpoint(kind));
  if (kind === 'anthropic') {
    if (!apiKey) throw new Error('No Anthropic API key is stored. Run "Context Desk: Set API Key".');
    return new AnthropicProvider({
      apiKey,
      ...(s['agent.anthropicBaseUrl'] ? { baseURL: s['agent.anthropicBaseUrl'] } : {}),
    });
  }
  // Local servers (Ollama, vLLM, LM Studio) take any key; the SDK insists on one.
  return new OpenAICompatibleProvider({ baseURL: s['agent.baseUrl'], apiKey: apiKey ?? 'not-needed' });
}

/** The panel's `provider/model` label and, when the agent cannot run yet, what to do. */
export function modelFields(s: Settings): { model?: string; setupHint?: string } {
  const kind = providerKind(s['agent.provider']);
  // vscode.lm takes the first model VS Code offers when none is named.
  if (s['agent.model'] || kind === 'vscode-lm') return { model: `${kind}/${s['agent.model'] || 'first available'}` };
  return {
    setupHint:
      kind === 'anthropic'
        ? 'No model is configured. Set contextDesk.agent.model (e.g. claude-sonnet-4-5) and store your key with "Context Desk: Set API Key".'
        : 'No model is configured. Set contextDesk.agent.model (and contextDesk.agent.baseUrl for an OpenAI-compatible server such as Ollama, vLLM or LM Studio), or choose another provider in contextDesk.agent.provider.',
  };
}
