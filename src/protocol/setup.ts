// The setup form's data: which providers there are, what is configured now, what the form saves, and
// what a connection test found. The key itself only ever travels from the form to the host.
import type { ProviderChoice, SetupSummary } from './chat';

export interface ProviderOption {
  id: ProviderChoice;
  label: string;
  description: string;
  /** The form shows a base URL field, prefilled with this when empty ('' = the provider's own API). */
  baseUrl?: { default: string; placeholder: string };
  key: 'required' | 'optional' | 'none';
  /** The model field: free text with suggestions, or fixed (demo). */
  model: 'listed' | 'fixed';
}

export interface SetupForm {
  provider: ProviderChoice;
  /** The base URL of each provider that has one, as configured. */
  baseUrls: Partial<Record<ProviderChoice, string>>;
  model: string;
  contextWindow: number;
  /** Providers that have a key in secret storage (never the key itself). */
  keyStored: ProviderChoice[];
  providers: ProviderOption[];
}

export interface SetupInput {
  provider: ProviderChoice;
  baseUrl: string;
  model: string;
  contextWindow?: number;
  /** A new key to store; absent keeps the stored one. */
  apiKey?: string;
  /** Removes the stored key of this provider. */
  removeKey?: boolean;
}

/** What Test connection (or listing the models) found: one message that names the URL tried. */
export interface ConnectionResult {
  ok: boolean;
  /** The URL that was tried (empty for providers without one). */
  url: string;
  message: string;
  /** Models the endpoint (or VS Code) offers. */
  models: string[];
}

/** A field of the form a refusal is about: the form marks it invalid and puts the focus there. */
export type SetupField = 'baseUrl' | 'apiKey' | 'model' | 'contextWindow';

export type SaveResult = { ok: true; setup: SetupSummary } | { ok: false; message: string; field?: SetupField };
