// Every setting the extension reads, with its default. A unit test checks this table against
// package.json's contributes.configuration in both directions, so code and manifest cannot drift.
import type { WorkspaceConfiguration } from 'vscode';
import type { BudgetLimits, BudgetMode } from '../core/budget';
import type { StrategyName, StrategyOptions } from '../core/strategies/types';
import { STRATEGIES } from './agent/chatItems';
import type { TokenizerName } from '../core/tokens';
import type { PanelSettings } from '../protocol/messages';
import { resolvePricing, type Pricing } from '../core/cost/pricing';

export const SECTION = 'contextDesk';
/** VS Code's own terminal settings, read (never written) where capture must match what the terminal shows. */
export const TERMINAL_SECTION = 'terminal.integrated';

export const SETTINGS = {
  strategy: { default: 'cache-aware' },
  maskingWindow: { default: 10 },
  tokenizer: { default: 'o200k' },
  cachedInputPrice: { default: 0.1 },
  cacheWritePrice: { default: null as number | null },
  prices: { default: {} as Record<string, unknown> },
  storeFolder: { default: '.context-desk' },
  'mcp.servers': { default: {} as Record<string, unknown> },
  'mcp.listTimeoutSeconds': { default: 60 },
  'skills.folders': { default: [] as string[] },
  'agent.provider': { default: 'openai-compatible' },
  'agent.baseUrl': { default: 'http://127.0.0.1:11434/v1' },
  'agent.anthropicBaseUrl': { default: '' },
  'agent.model': { default: '' },
  'agent.summaryModel': { default: '' },
  'agent.contextWindow': { default: 128000 },
  'agent.maxTurns': { default: 50 },
  'agent.maxOutputTokens': { default: 0 },
  'agent.budgetTokens': { default: 0 },
  'agent.budgetMode': { default: 'hard' },
  'agent.approveCommands': { default: true },
  'agent.autoApproveReadOnlyMcpTools': { default: false },
  'terminals.capture': { default: true },
  'redaction.patterns': { default: [] as unknown[] },
} as const satisfies Record<string, { default: unknown }>;

export type SettingKey = keyof typeof SETTINGS;
type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;
/** A `null` default stands for "automatic": a number may be set instead. */
const fits = (value: unknown, fallback: unknown): boolean =>
  kind(value) === kind(fallback) || (fallback === null && typeof value === 'number' && Number.isFinite(value));
const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
export type Settings = { -readonly [K in SettingKey]: Widen<(typeof SETTINGS)[K]['default']> };

/**
 * Reads all settings, falling back to the table's default when a value has the wrong type. The limits
 * that protect the user's money (budget, its mode, turns per message) are taken from a workspace only
 * where it tightens them: a repository's settings cannot lift a budget the user set.
 */
export function readSettings(
  config: Pick<WorkspaceConfiguration, 'get'> & Partial<Pick<WorkspaceConfiguration, 'inspect'>>,
): Settings {
  const out = {} as Record<string, unknown>;
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const value = config.get<unknown>(key, spec.default);
    out[key] = fits(value, spec.default) ? value : spec.default;
  }
  if (config.inspect) {
    const layers = <K extends SettingKey>(key: K): { user: Settings[K]; workspace?: Settings[K] } => {
      const i = config.inspect!<unknown>(key);
      const ok = (v: unknown): v is Settings[K] => v !== undefined && fits(v, SETTINGS[key].default);
      const user = ok(i?.globalValue) ? i.globalValue : (SETTINGS[key].default as Settings[K]);
      const workspace = [i?.workspaceFolderValue, i?.workspaceValue].find(ok);
      // A workspace value VS Code does not apply (Restricted Mode) takes no effect here either.
      const applied = workspace !== undefined && out[key] === workspace;
      return applied ? { user, workspace } : { user };
    };
    const budget = layers('agent.budgetTokens');
    if (budget.workspace !== undefined) out['agent.budgetTokens'] = tighterBudget(budget.user, budget.workspace);
    const mode = layers('agent.budgetMode');
    if (mode.workspace !== undefined) out['agent.budgetMode'] = stricterMode(mode.user, mode.workspace);
    const turns = layers('agent.maxTurns');
    if (turns.workspace !== undefined) out['agent.maxTurns'] = Math.min(turns.user, turns.workspace);
  }
  return out as Settings;
}

/** 0 is "no budget": a workspace may set one where the user has none, or a lower one, never lift it. */
export function tighterBudget(user: number, workspace: number): number {
  if (user <= 0) return workspace;
  return workspace > 0 ? Math.min(user, workspace) : user;
}

const STRICTNESS: Record<string, number> = { soft: 0, approval: 1, hard: 2 };

/** `hard` (refuse) is stricter than `approval` (ask), which is stricter than `soft` (warn). */
export function stricterMode(user: string, workspace: string): string {
  return (STRICTNESS[workspace] ?? -1) > (STRICTNESS[user] ?? -1) ? workspace : user;
}

export function panelSettings(s: Settings): PanelSettings {
  return {
    strategy: s.strategy,
    maskingWindow: s.maskingWindow,
    tokenizer: s.tokenizer,
    cachedInputPrice: s.cachedInputPrice,
  };
}

/**
 * What an agent session takes from the settings. A live session takes these up from its next model call
 * (AgentSession.reconfigure), a new one is built with them: one mapping for both.
 */
export interface SessionSettings {
  strategy: StrategyName;
  strategyOptions: Pick<StrategyOptions, 'window' | 'cachedPrice' | 'cacheWritePrice' | 'contextWindow'>;
  /** The prices every cost figure uses (the strategy's cache prices come from them). */
  pricing: Pricing;
  tokenizer: TokenizerName;
  budget: BudgetLimits;
}

const BUDGET_MODES: readonly BudgetMode[] = ['hard', 'soft', 'approval'];

/**
 * The session's prices from the model's name, `prices`, `cachedInputPrice` and `cacheWritePrice`. A bad
 * `prices` entry is reported through `onError` and ignored (units are shown, never a wrong price).
 */
export function pricingFor(s: Settings, model: string, onError?: (message: string) => void): Pricing {
  const base = {
    model,
    provider: s['agent.provider'],
    cachedPrice: s.cachedInputPrice,
    cacheWritePrice: s.cacheWritePrice !== null && s.cacheWritePrice >= 1 ? s.cacheWritePrice : null,
  };
  try {
    return resolvePricing({ ...base, userPrices: s.prices });
  } catch (e) {
    onError?.(`contextDesk.prices: ${e instanceof Error ? e.message : String(e)}. The default price table is used.`);
    return resolvePricing(base);
  }
}

/**
 * The strategies the agent offers (its picker, the setting's enum). `retry-filter` is replay's: it never
 * keeps the context under the window, so a hand-edited value falls back to the default like any unknown one.
 */
const isAgentStrategy = (v: string): v is StrategyName => (STRATEGIES as readonly string[]).includes(v);

export function sessionSettings(s: Settings, onError?: (message: string) => void): SessionSettings {
  const mode = BUDGET_MODES.find((m) => m === s['agent.budgetMode']) ?? 'hard';
  const limit = s['agent.budgetTokens'];
  const model = s['agent.provider'] === 'demo' ? '' : s['agent.model'];
  const pricing = pricingFor(s, model, onError);
  return {
    strategy: isAgentStrategy(s.strategy) ? s.strategy : 'cache-aware',
    strategyOptions: {
      window: s.maskingWindow,
      cachedPrice: pricing.cachedPrice,
      cacheWritePrice: pricing.cacheWritePrice,
      contextWindow: s['agent.contextWindow'],
    },
    pricing,
    tokenizer: s.tokenizer === 'cl100k' || s.tokenizer === 'chars4' ? s.tokenizer : 'o200k',
    budget: limit > 0 ? { session: { limit, mode } } : {},
  };
}

/** Settings whose change reaches the agent session (the rest only the panel). */
export const SESSION_SETTING_PREFIXES = [
  'agent',
  'strategy',
  'tokenizer',
  'maskingWindow',
  'cachedInputPrice',
  'cacheWritePrice',
  'prices',
] as const;

export type SettingScope = 'global' | 'workspace' | 'workspaceFolder';

const SCOPE_LABELS: Record<SettingScope, string> = {
  global: 'user settings',
  workspace: 'workspace settings',
  workspaceFolder: 'workspace folder settings',
};

/**
 * Where a picker writes a value: the most specific scope that sets it now (folder, workspace, user), so
 * the change takes effect instead of hiding under a value that wins; user settings when none sets it.
 */
export function winningScope(
  values: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): SettingScope {
  if (values?.workspaceFolderValue !== undefined) return 'workspaceFolder';
  if (values?.workspaceValue !== undefined) return 'workspace';
  return 'global';
}

/** What the panel says after a picker wrote `key` to `scope` (nothing for the usual user settings). */
export function pickerNotice(key: string, value: unknown, scope: SettingScope, effective: boolean): string | undefined {
  const where = SCOPE_LABELS[scope];
  if (!effective)
    return `${key} was set to ${JSON.stringify(value)} in the ${where}, but another value still wins (a policy, or workspace settings that Restricted Mode ignores). Check where ${key} is set.`;
  if (scope === 'global') return undefined;
  return `${key} is now ${JSON.stringify(value)} in the ${where}, where it was set (they win over user settings).`;
}
