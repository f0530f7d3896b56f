// The host side of the panel's setup form: what it shows (settings and which keys are stored, never a
// key) and what Save writes (settings where they take effect, the key through the one key-storage path).
import * as vscode from 'vscode';
import type { ProviderChoice } from '../../protocol/chat';
import type { SaveResult, SetupField, SetupForm, SetupInput } from '../../protocol/setup';
import { ANTHROPIC_DEFAULT_URL, hasApiKey, originOf, storeApiKey } from './apiKeys';
import { SECTION, type Settings } from '../settings';
import { PROVIDER_OPTIONS, modelFields, providerKind } from './providers';
import { redactSecretsSync } from '../../core/store/sanitize/secrets';
import { trimTrailing } from '../../core/trim';

export async function getSetup(s: Settings, secrets: vscode.SecretStorage): Promise<SetupForm> {
  const keyStored: ProviderChoice[] = [];
  for (const p of PROVIDER_OPTIONS) if (p.key !== 'none' && (await hasApiKey(secrets, p.id))) keyStored.push(p.id);
  return {
    provider: providerKind(s['agent.provider']),
    baseUrls: { 'openai-compatible': s['agent.baseUrl'], anthropic: s['agent.anthropicBaseUrl'] },
    model: s['agent.model'],
    contextWindow: s['agent.contextWindow'],
    keyStored,
    providers: [...PROVIDER_OPTIONS],
  };
}

/**
 * Writes a setting where it takes effect: where the workspace already sets it (a user value would be
 * shadowed there), else in the user's settings so it holds in every workspace.
 */
async function write(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const where = config.inspect(key);
  const target =
    where?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : where?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  if (config.get(key) !== value) await config.update(key, value, target);
}

/** A user name or password in the URL, or anything the redaction rules find (`?api_key=…`). */
function urlHoldsSecret(url: string): boolean {
  if (redactSecretsSync(url).text !== url) return true;
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

export function validateSetup(input: SetupInput): string | undefined {
  return setupRefusal(input)?.message;
}

/** Why the form cannot be saved, and the field that says so (the form focuses it). */
export function setupRefusal(input: SetupInput): { message: string; field?: SetupField } | undefined {
  const option = PROVIDER_OPTIONS.find((p) => p.id === input.provider);
  if (!option) return { message: `Unknown provider "${String(input.provider)}".` };
  // Settings are written to settings.json as they are: a key in the URL would sit there in clear
  // (checked first: the messages below repeat the URL).
  if (input.baseUrl && urlHoldsSecret(input.baseUrl))
    return {
      message: 'The base URL holds a key or password: enter the key in the API key field, and the URL without it.',
      field: 'baseUrl',
    };
  if (option.baseUrl && input.baseUrl && !/^https?:\/\/[^\s/]+/i.test(input.baseUrl))
    return { message: `The base URL must start with http:// or https:// (got "${input.baseUrl}").`, field: 'baseUrl' };
  if (input.provider === 'openai-compatible' && !input.baseUrl)
    return { message: 'Enter the base URL of the endpoint.', field: 'baseUrl' };
  if (option.model === 'listed' && input.provider !== 'vscode-lm' && !input.model.trim())
    return { message: 'Choose a model (Test connection lists what the endpoint offers).', field: 'model' };
  if (
    input.contextWindow !== undefined &&
    (!Number.isInteger(input.contextWindow) || input.contextWindow < 1024 || input.contextWindow > 10_000_000)
  )
    return {
      message: 'The context window must be a whole number of tokens from 1,024 to 10,000,000.',
      field: 'contextWindow',
    };
  return undefined;
}

/** Saves the form; the chat picks the new settings up through the configuration change. */
export async function saveSetup(
  input: SetupInput,
  secrets: vscode.SecretStorage,
  settings: () => Settings,
): Promise<SaveResult> {
  const invalid = setupRefusal(input);
  if (invalid) return { ok: false, ...invalid };
  const baseUrl = trimTrailing(input.baseUrl.trim(), '/');
  // The key first: a provider switch must not run a moment with the new endpoint and the old key.
  // The key is bound to the origin it is saved for (see keyOrigin.ts).
  const origin = originOf(baseUrl || (input.provider === 'anthropic' ? ANTHROPIC_DEFAULT_URL : ''));
  if (input.removeKey) await storeApiKey(secrets, input.provider, '', '');
  else if (input.apiKey) await storeApiKey(secrets, input.provider, input.apiKey.trim(), origin);
  if (input.provider === 'openai-compatible') await write('agent.baseUrl', baseUrl);
  if (input.provider === 'anthropic') await write('agent.anthropicBaseUrl', baseUrl);
  if (input.provider !== 'demo') await write('agent.model', input.model.trim());
  if (input.contextWindow !== undefined) await write('agent.contextWindow', input.contextWindow);
  await write('agent.provider', input.provider);
  // What comes right after (Try the demo sends its first message) must find the new provider: wait,
  // at most a few seconds, until reading the settings shows it.
  await readsShow(() => settings()['agent.provider'] === input.provider);
  return { ok: true, setup: modelFields(settings()).setup };
}

/** Resolves once `check` holds after a configuration change (or at once, or after `ms` regardless). */
function readsShow(check: () => boolean, ms = 5000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const listener = vscode.workspace.onDidChangeConfiguration(() => {
      if (check()) done();
    });
    const timer = setTimeout(done, ms);
  });
}
