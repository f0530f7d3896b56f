// Every setting the extension reads, with its default. A unit test checks this table against
// package.json's contributes.configuration in both directions, so code and manifest cannot drift.
import type { WorkspaceConfiguration } from 'vscode';
import type { PanelSettings } from '../protocol/messages';

export const SECTION = 'contextDesk';

export const SETTINGS = {
  strategy: { default: 'cache-aware' },
  maskingWindow: { default: 10 },
  tokenizer: { default: 'o200k' },
  cachedInputPrice: { default: 0.1 },
  storeFolder: { default: '.context-desk' },
  'mcp.servers': { default: {} as Record<string, unknown> },
  'skills.folders': { default: [] as string[] },
  'agent.provider': { default: 'openai-compatible' },
  'agent.baseUrl': { default: 'http://127.0.0.1:11434/v1' },
  'agent.anthropicBaseUrl': { default: '' },
  'agent.model': { default: '' },
  'agent.summaryModel': { default: '' },
  'agent.contextWindow': { default: 128000 },
  'agent.maxTurns': { default: 50 },
  'agent.budgetTokens': { default: 0 },
  'agent.budgetMode': { default: 'hard' },
  'agent.approveCommands': { default: true },
  'terminals.capture': { default: true },
  'redaction.patterns': { default: [] as unknown[] },
} as const satisfies Record<string, { default: unknown }>;

export type SettingKey = keyof typeof SETTINGS;
type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;
const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
export type Settings = { -readonly [K in SettingKey]: Widen<(typeof SETTINGS)[K]['default']> };

/** Reads all settings, falling back to the table's default when a value has the wrong type. */
export function readSettings(config: Pick<WorkspaceConfiguration, 'get'>): Settings {
  const out = {} as Record<string, unknown>;
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const value = config.get<unknown>(key, spec.default);
    out[key] = kind(value) === kind(spec.default) ? value : spec.default;
  }
  return out as Settings;
}

export function panelSettings(s: Settings): PanelSettings {
  return {
    strategy: s.strategy,
    maskingWindow: s.maskingWindow,
    tokenizer: s.tokenizer,
    cachedInputPrice: s.cachedInputPrice,
  };
}
