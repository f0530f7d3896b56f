// What the panel hands the host to keep while its view is hidden: VS Code discards a hidden webview, and
// its own state (getState/setState) is written to disk as it is, so text that may hold a key (the setup
// form's fields, an error naming a URL) is kept by the host, in memory only. Read field by field: it
// comes from the webview.
import type { ProviderChoice } from './chat';

/** The setup form's fields as typed, before Save. */
export interface SetupDraft {
  provider: ProviderChoice;
  baseUrl: string;
  apiKey: string;
  removeKey: boolean;
  model: string;
  contextWindow: string;
}

export interface PanelMemory {
  setup?: SetupDraft;
  /** The panel's error line, until dismissed. */
  error?: string;
}

/** Longer fields are not kept (a paste gone wrong need not live in the host). */
const MAX_FIELD = 16 * 1024;

const PROVIDERS: readonly string[] = ['demo', 'openai-compatible', 'anthropic', 'vscode-lm'] satisfies ProviderChoice[];

const text = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD;

export function readPanelMemory(raw: unknown): PanelMemory {
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const memory: PanelMemory = {};
  if (text(r.error) && r.error !== '') memory.error = r.error;
  const s = r.setup as Record<string, unknown> | undefined;
  if (
    typeof s === 'object' &&
    s !== null &&
    PROVIDERS.includes(s.provider as string) &&
    text(s.baseUrl) &&
    text(s.apiKey) &&
    text(s.model) &&
    text(s.contextWindow)
  )
    memory.setup = {
      provider: s.provider as ProviderChoice,
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
      removeKey: s.removeKey === true,
      model: s.model,
      contextWindow: s.contextWindow,
    };
  return memory;
}
