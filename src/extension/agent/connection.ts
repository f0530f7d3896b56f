// Test connection and the model list of the setup form: asks the endpoint for its models (OpenAI-compatible
// `GET <base>/models`, Anthropic `GET /v1/models`) or VS Code for its language models. Every answer is one
// message that names the URL tried and, on failure, what to do.
import * as vscode from 'vscode';
import { DEMO_MODEL } from '../../core/demo/demo-provider';
import type { ProviderChoice } from '../../protocol/chat';
import type { ConnectionResult } from '../../protocol/setup';
import { ANTHROPIC_API } from './providers';
import { anthropicModule, openAIModule } from './providerModules';
import { trimTrailing } from '../../core/trim';

const TIMEOUT_MS = 10_000;

export interface ProbeInput {
  provider: ProviderChoice;
  baseUrl: string;
  apiKey?: string;
}

/** The models the endpoint offers (or why it could not be asked). */
export async function listModels(p: ProbeInput): Promise<ConnectionResult> {
  if (p.provider === 'demo')
    return { ok: true, url: '', message: 'The demo model runs inside Context Desk.', models: [DEMO_MODEL] };
  if (p.provider === 'vscode-lm') return listLanguageModels();
  const url = modelsUrl(p);
  if (!/^https?:\/\//i.test(p.baseUrl || 'https://'))
    return { ok: false, url, message: `"${p.baseUrl}" is not an http(s) URL.`, models: [] };
  try {
    const models = p.provider === 'anthropic' ? await anthropicModels(p) : await openAIModels(p);
    return {
      ok: true,
      url,
      message: `Connected to ${url}: ${models.length} model${models.length === 1 ? '' : 's'} listed.`,
      models,
    };
  } catch (e) {
    return { ok: false, url, message: describeFailure(e, url, p), models: [] };
  }
}

/** Lists the models and checks that the chosen one is among them. */
export async function testConnection(p: ProbeInput & { model: string }): Promise<ConnectionResult> {
  const r = await listModels(p);
  if (!r.ok || p.provider === 'demo' || !p.model || r.models.length === 0) return r;
  if (r.models.includes(p.model) || (p.provider === 'vscode-lm' && r.models.some((m) => m.includes(p.model))))
    return { ...r, message: `${r.message} "${p.model}" is one of them.` };
  return {
    ...r,
    ok: false,
    message: `${r.message} "${p.model}" is not one of them: choose a listed model.`,
  };
}

/** `<base>/models` as the SDK requests it. */
export function modelsUrl(p: Pick<ProbeInput, 'provider' | 'baseUrl'>): string {
  if (p.provider === 'anthropic') return `${trimTrailing(p.baseUrl || ANTHROPIC_API, '/')}/v1/models`;
  return `${trimTrailing(p.baseUrl, '/')}/models`;
}

async function openAIModels(p: ProbeInput): Promise<string[]> {
  const client = new (openAIModule().OpenAIClient)({
    baseURL: p.baseUrl,
    apiKey: p.apiKey || 'not-needed',
    timeout: TIMEOUT_MS,
    maxRetries: 0,
  });
  const ids: string[] = [];
  for await (const m of client.models.list()) if (ids.push(m.id) >= 500) break;
  return ids.sort();
}

async function anthropicModels(p: ProbeInput): Promise<string[]> {
  const client = new (anthropicModule().AnthropicClient)({
    apiKey: p.apiKey || '',
    ...(p.baseUrl ? { baseURL: p.baseUrl } : {}),
    timeout: TIMEOUT_MS,
    maxRetries: 0,
  });
  const ids: string[] = [];
  for await (const m of client.models.list()) if (ids.push(m.id) >= 500) break;
  return ids;
}

async function listLanguageModels(): Promise<ConnectionResult> {
  try {
    const models = [...new Set((await vscode.lm.selectChatModels()).map((m) => m.id))];
    return models.length === 0
      ? {
          ok: false,
          url: '',
          message:
            'VS Code offers no language models: install and sign in to an extension that provides one (e.g. GitHub Copilot), or choose another provider.',
          models,
        }
      : { ok: true, url: '', message: `VS Code offers ${models.length} language model(s).`, models };
  } catch (e) {
    return { ok: false, url: '', message: `VS Code could not list its language models: ${String(e)}`, models: [] };
  }
}

/** Network error codes in an error's cause chain (the SDKs wrap fetch, which wraps the socket error). */
function causeCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing is listening there. Start the server, or correct the base URL',
  ENOTFOUND: 'the host name does not resolve. Correct the base URL',
  EAI_AGAIN: 'the host name could not be resolved (DNS). Check the network and the base URL',
  ETIMEDOUT: 'the connection timed out. Check the base URL and the network',
  ECONNRESET: 'the server closed the connection. Check that the URL is the API, not a web page',
  EHOSTUNREACH: 'the host is unreachable. Check the base URL and the network',
};

/** One sentence: what failed, at which URL, and the fix. */
export function describeFailure(e: unknown, url: string, p: ProbeInput): string {
  const status = (e as { status?: unknown }).status;
  if (typeof status === 'number') {
    if (status === 401 || status === 403)
      return `${url} refused the API key (HTTP ${status}). ${p.apiKey ? 'Check the key.' : 'Enter the API key.'}`;
    if (status === 404)
      return `${url} answered HTTP 404: this is not an API base URL that lists models. OpenAI-compatible servers usually end in /v1.`;
    return `${url} answered HTTP ${status}: ${(e as Error).message}`;
  }
  const code = causeCode(e);
  if (code && NETWORK[code]) return `Could not connect to ${url}: ${NETWORK[code]}.`;
  if (code?.startsWith('CERT_') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return `Could not connect to ${url}: the TLS certificate is not trusted (${code}).`;
  // The SDK that made the request is loaded; the other one is not loaded just to ask.
  const timeout =
    p.provider === 'anthropic'
      ? anthropicModule().AnthropicClient.APIConnectionTimeoutError
      : openAIModule().OpenAIClient.APIConnectionTimeoutError;
  if (e instanceof timeout)
    return `${url} did not answer within ${TIMEOUT_MS / 1000} s. Check that the server runs and the base URL.`;
  const message = e instanceof Error ? e.message : String(e);
  return `Could not connect to ${url}${code ? ` (${code})` : ''}: ${message}`;
}
