// The binding of the agent's API keys to the endpoint origin they were set for (no VS Code API here,
// so it is unit-tested; apiKeys.ts adds the settings and the modal).
import type { SecretStorage } from 'vscode';

/** Where the agent's API key lives in SecretStorage (never in settings or on disk), per provider. */
export function apiKeySecret(provider: string): string {
  // The OpenAI-compatible key keeps the name it had before there was a choice of provider.
  return provider === 'anthropic' ? 'contextDesk.agent.apiKey.anthropic' : 'contextDesk.agent.apiKey';
}

const originSecret = (provider: string): string => `${apiKeySecret(provider)}.origin`;

/** `scheme://host:port` of a URL, or the text itself when it is not one (compared as is). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Stores (or with '' removes) the key, bound to the origin it is meant for. */
export async function storeApiKey(
  secrets: SecretStorage,
  provider: string,
  key: string,
  origin: string,
): Promise<void> {
  if (key === '') {
    await secrets.delete(apiKeySecret(provider));
    await secrets.delete(originSecret(provider));
    return;
  }
  await secrets.store(apiKeySecret(provider), key);
  await secrets.store(originSecret(provider), origin);
}

/** Whether a key is stored for `provider` (the key itself is never returned here). */
export async function hasApiKey(secrets: SecretStorage, provider: string): Promise<boolean> {
  return (await secrets.get(apiKeySecret(provider))) !== undefined;
}

/**
 * The stored key only if it is bound to `origin` (no question asked): for a connection test to a URL
 * typed in the setup form. A key stored before keys were bound goes only to the configured endpoint,
 * and only when the user chose it (a workspace's endpoint must not get an unbound key unasked).
 */
export async function keyBoundTo(
  secrets: SecretStorage,
  provider: string,
  origin: string,
  configured: { url: string; fromWorkspace: boolean } | undefined,
): Promise<string | undefined> {
  const key = await secrets.get(apiKeySecret(provider));
  if (key === undefined) return undefined;
  const bound =
    (await secrets.get(originSecret(provider))) ??
    (configured && !configured.fromWorkspace ? originOf(configured.url) : undefined);
  return bound !== undefined && bound === origin ? key : undefined;
}

export type AskOrigin = (
  bound: string,
  requested: string,
  fromWorkspace: boolean,
) => Promise<'once' | 'rebind' | undefined>;

/** The request was not sent: the user did not allow the key to go to another origin. */
export class KeyOriginDeclined extends Error {
  constructor(bound: string, requested: string) {
    super(
      `Nothing was sent: the API key is bound to ${bound} and sending it to ${requested} was not allowed. Change contextDesk.agent.baseUrl (or anthropicBaseUrl) back, or set the key again for the new endpoint.`,
    );
  }
}

/**
 * The stored key for a request to `endpoint`, or undefined when none is stored. A key bound to another
 * origin is only returned after the user allows it; a key stored before keys were bound is bound now
 * to the endpoint the user chose (asking when a workspace chose it).
 */
export async function apiKeyFor(
  secrets: SecretStorage,
  provider: string,
  endpoint: { url: string; fromWorkspace: boolean },
  ask: AskOrigin,
): Promise<string | undefined> {
  const key = await secrets.get(apiKeySecret(provider));
  if (key === undefined) return undefined;
  const requested = originOf(endpoint.url);
  const bound = await secrets.get(originSecret(provider));
  if (bound === requested) return key;
  if (bound === undefined && !endpoint.fromWorkspace) {
    await secrets.store(originSecret(provider), requested);
    return key;
  }
  const answer = await ask(
    bound ?? 'an endpoint not recorded (stored by an earlier version)',
    requested,
    endpoint.fromWorkspace,
  );
  if (answer === undefined) throw new KeyOriginDeclined(bound ?? 'another endpoint', requested);
  if (answer === 'rebind') await secrets.store(originSecret(provider), requested);
  return key;
}
