// Which model the agent talks to, from the settings: the provider, its key, the panel's label and what
// to tell the user when something is missing.
import type * as vscode from 'vscode';
import type { ChatProvider } from '../../core/agent/provider';
import { apiKeyFor, currentEndpoint } from './apiKeys';
import { DEMO_MODEL, DemoProvider } from '../../core/demo/demo-provider';
import type { ProviderChoice, SetupSummary } from '../../protocol/chat';
import type { ProviderOption } from '../../protocol/setup';
import type { Settings } from '../settings';
import { LanguageModelProvider } from './lmProvider';
import { anthropicModule, openAIModule } from './providerModules';

export type ProviderKind = ProviderChoice;

export const ANTHROPIC_API = 'https://api.anthropic.com';

/** The `agent.provider` setting; an unknown value falls back to the default. */
export function providerKind(value: string): ProviderKind {
  return value === 'anthropic' || value === 'vscode-lm' || value === 'demo' ? value : 'openai-compatible';
}

/** What the setup form offers, in its order. */
export const PROVIDER_OPTIONS: readonly ProviderOption[] = [
  {
    id: 'openai-compatible',
    label: 'OpenAI-compatible endpoint',
    description:
      'Ollama, vLLM, LM Studio, llama.cpp server, OpenAI or any hosted API that speaks /v1/chat/completions.',
    baseUrl: { default: 'http://127.0.0.1:11434/v1', placeholder: 'http://127.0.0.1:11434/v1' },
    key: 'optional',
    model: 'listed',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    description: "Anthropic's Messages API (or a gateway that speaks it), with prompt-cache breakpoints.",
    baseUrl: { default: '', placeholder: `${ANTHROPIC_API} (leave empty)` },
    key: 'required',
    model: 'listed',
  },
  {
    id: 'vscode-lm',
    label: 'VS Code language models',
    description: "Models VS Code offers to extensions (e.g. GitHub Copilot's). No key: VS Code asks you to allow it.",
    key: 'none',
    model: 'listed',
  },
  {
    id: 'demo',
    label: 'Demo model (scripted, no network)',
    description:
      'A script inside Context Desk, not an AI: it plays a short task so you can watch masking, the meter and stored outputs without an endpoint.',
    key: 'none',
    model: 'fixed',
  },
];

/** The URL the agent sends requests to (absent for providers without one). */
export function endpointOf(s: Settings): string | undefined {
  const kind = providerKind(s['agent.provider']);
  if (kind === 'openai-compatible') return s['agent.baseUrl'];
  if (kind === 'anthropic') return s['agent.anthropicBaseUrl'] || ANTHROPIC_API;
  return undefined;
}

/** The model name sent to the provider (the demo has its own). */
export function modelName(s: Settings): string {
  return providerKind(s['agent.provider']) === 'demo' ? DEMO_MODEL : s['agent.model'];
}

export async function createProvider(s: Settings, secrets: vscode.SecretStorage): Promise<ChatProvider> {
  const kind = providerKind(s['agent.provider']);
  if (kind === 'demo') return new DemoProvider();
  if (kind === 'vscode-lm') return new LanguageModelProvider();
  // Bound to the origin it was set for: another origin (e.g. from a cloned workspace's settings) asks first.
  const apiKey = await apiKeyFor(secrets, kind, currentEndpoint(kind));
  if (kind === 'anthropic') {
    if (!apiKey) throw new Error('No Anthropic API key is stored. Enter it in the setup form (Set up a model).');
    return new (anthropicModule().AnthropicProvider)({
      apiKey,
      ...(s['agent.anthropicBaseUrl'] ? { baseURL: s['agent.anthropicBaseUrl'] } : {}),
    });
  }
  // Local servers (Ollama, vLLM, LM Studio) take any key; the SDK insists on one.
  return new (openAIModule().OpenAICompatibleProvider)({ baseURL: s['agent.baseUrl'], apiKey: apiKey ?? 'not-needed' });
}

/** The panel's `provider/model` label and where the setup stands. */
export function modelFields(s: Settings): { model?: string; setup: SetupSummary } {
  const kind = providerKind(s['agent.provider']);
  const endpoint = endpointOf(s);
  const base = { provider: kind, ...(endpoint ? { endpoint } : {}) };
  if (kind === 'demo') return { model: 'Demo model (scripted)', setup: { ...base, ready: true } };
  // vscode.lm takes the first model VS Code offers when none is named.
  if (s['agent.model'] || kind === 'vscode-lm')
    return { model: `${kind}/${s['agent.model'] || 'first available'}`, setup: { ...base, ready: true } };
  return {
    setup: {
      ...base,
      ready: false,
      hint:
        kind === 'anthropic'
          ? 'No Anthropic model is chosen yet. Set up a model (and your key), or try the demo model.'
          : 'No model is set up yet. Choose one (Ollama, vLLM, LM Studio, a hosted API or VS Code’s models), or try the demo model: it needs no endpoint.',
    },
  };
}
