// The agent's API keys, in SecretStorage, each bound to the endpoint origin it was set for: a cloned
// repository's settings that point the endpoint elsewhere cannot have the key sent there. A request to
// another origin asks first (modal, naming both origins); declining sends nothing.
import * as vscode from 'vscode';
import { SECTION } from '../settings';
import { apiKeyFor as bound, type AskOrigin } from './keyOrigin';

export { apiKeySecret, hasApiKey, keyBoundTo, KeyOriginDeclined, originOf, storeApiKey } from './keyOrigin';

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';

/** The endpoint the provider talks to now, and whether a workspace (not the user) chose it. */
export function currentEndpoint(provider: string): { url: string; fromWorkspace: boolean } {
  const key = provider === 'anthropic' ? 'agent.anthropicBaseUrl' : 'agent.baseUrl';
  const i = vscode.workspace.getConfiguration(SECTION).inspect<string>(key);
  const ws = i?.workspaceFolderValue ?? i?.workspaceValue;
  // Restricted Mode ignores workspace values of these settings (restrictedConfigurations).
  const fromWorkspace = ws !== undefined && vscode.workspace.isTrusted;
  const value = (fromWorkspace ? ws : undefined) ?? i?.globalValue ?? i?.defaultValue ?? '';
  const url = provider === 'anthropic' && !value ? ANTHROPIC_DEFAULT_URL : value;
  return { url, fromWorkspace };
}

/** The modal that names both origins. */
export const askOrigin: AskOrigin = async (bound, requested, fromWorkspace) => {
  const once = `Send to ${requested} this time`;
  const rebind = `Use it for ${requested} from now on`;
  const choice = await vscode.window.showWarningMessage(
    `Send your Context Desk API key to ${requested}?`,
    {
      modal: true,
      detail: `The key was stored for ${bound}. The agent's endpoint is now ${requested}${fromWorkspace ? ', set in this workspace’s settings' : ''}. Nothing is sent unless you allow it.`,
    },
    once,
    rebind,
  );
  return choice === once ? 'once' : choice === rebind ? 'rebind' : undefined;
};

/** The stored key for a request to the current endpoint of `provider`; another origin asks first (modal). */
export function apiKeyFor(
  secrets: vscode.SecretStorage,
  provider: string,
  endpoint: { url: string; fromWorkspace: boolean },
): Promise<string | undefined> {
  return bound(secrets, provider, endpoint, askOrigin);
}
