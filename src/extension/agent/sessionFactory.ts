// Builds the agent session a chat runs on, from the settings: provider, tools (workspace, MCP, the demo's),
// tokenizer, strategy, long-output store and budget.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentSession } from '../../core/agent/session';
import type { LiveSettings } from '../../core/agent/session-options';
import { ToolRegistry } from '../../core/agent/tool-registry';
import { createWorkspaceTools, type CommandPort, type EditFilePort } from '../../core/agent/tools';
import type { CallRecord, SessionState, SummaryCallRecord } from '../../core/agent/session-state';
import type { Message, Tokenizer } from '../../core/messages';
import type { Logger } from '../../core/ports';
import { mcpAgentTools } from '../../core/agent/tools/mcp';
import type { McpApprovalPort, McpToolHost } from '../../core/mcp';
import type { ContextStore } from '../../core/store/context-store';
import type { StrategyState } from '../../core/strategies/strategy-state';
import { historyPointer } from '../../core/store/history';
import { ToolOutputStore } from '../../core/store/tool-outputs';
import { demoBuildTool } from '../../core/demo/demo-build-tool';
import { DEMO_MASKING_WINDOW } from '../../core/demo/demo-script';
import { pricingFor, sessionSettings, type SessionSettings, type Settings } from '../settings';
import type { ApprovalBroker } from './approvals';
import { createProvider, modelName, providerKind } from './providers';

/** What MCP and skills add to a session: the MCP host, static prompt lines, folders the agent may read. */
export interface Extras {
  mcp?: McpToolHost;
  prompt: string;
  readRoots?: readonly string[];
}

export interface SessionFactoryDeps {
  secrets: vscode.SecretStorage;
  logger: Logger;
  /** VS Code's side of edit_file and run_command. */
  hostPorts: (workspaceRoot: string, approvals: ApprovalBroker) => { edit: EditFilePort; command: CommandPort };
  approvals: ApprovalBroker;
  extras: () => Promise<Extras>;
  /** Who approves mcp_call (asked in the panel like a command); absent: calls run unasked. */
  mcpApproval?: McpApprovalPort;
}

/**
 * What a running session takes up when the settings change: strategy, tokenizer (by its encoding's
 * name, from `tokenizerFor`), window, budget and prices.
 */
export function liveUpdate(
  s: Settings,
  tokenizerFor: (name: SessionSettings['tokenizer']) => Tokenizer,
  warn: (m: string) => void,
): LiveSettings {
  const live = liveSettings(s, warn);
  const { money, ...prices } = live.pricing;
  return {
    strategy: live.strategy,
    strategyOptions: live.strategyOptions,
    budget: live.budget,
    tokenizer: tokenizerFor(live.tokenizer),
    prices,
    money: money ?? null,
  };
}

/** MCP and skills are optional: a failure there is logged and the agent runs without them. */
export async function optionalExtras(load: (() => Promise<Extras>) | undefined, logger: Logger): Promise<Extras> {
  try {
    return (await load?.()) ?? { prompt: '' };
  } catch (e) {
    logger.warn(`MCP tools and skills are not available to the agent: ${String(e)}`);
    return { prompt: '' };
  }
}

/**
 * The settings a session takes up, also while it runs (strategy, window, tokenizer, budget). The demo
 * model is a local script without a prompt cache, and masks after a few turns so it shows.
 */
export function liveSettings(s: Settings, onError?: (message: string) => void): SessionSettings {
  const live = sessionSettings(s, onError);
  if (providerKind(s['agent.provider']) !== 'demo') return live;
  const window = Math.min(live.strategyOptions.window ?? DEMO_MASKING_WINDOW, DEMO_MASKING_WINDOW);
  const pricing = { cachedPrice: 1, cacheWritePrice: 1, outputPrice: live.pricing.outputPrice };
  return { ...live, strategyOptions: { ...live.strategyOptions, window, cachedPrice: 1, cacheWritePrice: 1 }, pricing };
}

export interface BuildRequest {
  settings: Settings;
  /** The panel's tokenizer (shared by its sessions, released with the chat). */
  tokenizer: Tokenizer;
  store: ContextStore;
  workspaceFolder: string | undefined;
  sessionId: string;
  restore?: SessionState;
  onMessage: (m: Message) => void;
  onSetAside: (m: Message, index: number) => void;
  onCall: (r: CallRecord) => void;
  onSummaryCall: (r: SummaryCallRecord) => void;
  onStrategyState: (state: StrategyState) => void;
}

export async function buildSession(d: SessionFactoryDeps, r: BuildRequest): Promise<AgentSession> {
  const s = r.settings;
  const { store, workspaceFolder } = r;
  // Size caps: the oldest files of a full folder go before a new session adds more.
  void store.enforceCaps().catch((e: unknown) => d.logger.warn(`Store size caps: ${String(e)}`));
  const tokenizer = r.tokenizer;
  const extras = await d.extras();
  const demo = providerKind(s['agent.provider']) === 'demo';
  const tools = new ToolRegistry([
    ...(workspaceFolder
      ? createWorkspaceTools({
          workspaceRoot: workspaceFolder,
          storeRoot: store.root,
          ...(extras.readRoots?.length ? { readOnlyRoots: extras.readRoots } : {}),
          appRoot: vscode.env.appRoot,
          ...d.hostPorts(workspaceFolder, d.approvals),
        })
      : []),
    ...(extras.mcp ? mcpAgentTools(extras.mcp, d.mcpApproval) : []),
    ...(demo ? [demoBuildTool()] : []),
  ]);
  const live = liveSettings(s, (message) => d.logger.warn(message));
  const { money, ...prices } = live.pricing;
  const provider = await createProvider(s, d.secrets);
  const model = modelName(s);
  const session = new AgentSession({
    provider,
    model,
    ...(s['agent.summaryModel'] && !demo
      ? { summaryModel: { provider, model: s['agent.summaryModel'], pricing: pricingFor(s, s['agent.summaryModel']) } }
      : {}),
    tools,
    tokenizer,
    systemPrompt: [systemPrompt(workspaceFolder, store, store.historyPaths(r.sessionId)), extras.prompt]
      .filter(Boolean)
      .join('\n\n'),
    strategy: live.strategy,
    strategyOptions: live.strategyOptions,
    prices,
    ...(money ? { money } : {}),
    longOutput: new ToolOutputStore(store, tokenizer),
    // One name for the chat's history file and its outputs' folder (shorter placeholders than a UUID).
    sessionId: r.sessionId,
    historyPointer: historyPointer(store, r.sessionId),
    // The approval port always: a budget in approval mode may be set while the session lives.
    budget: { ...live.budget, approval: d.approvals },
    maxTurns: s['agent.maxTurns'],
    ...(s['agent.maxOutputTokens'] > 0 ? { maxOutputTokens: s['agent.maxOutputTokens'] } : {}),
    logger: d.logger,
    onMessage: r.onMessage,
    onSetAside: r.onSetAside,
    onCall: r.onCall,
    onSummaryCall: r.onSummaryCall,
    onStrategyState: r.onStrategyState,
    ...(r.restore ? { restore: r.restore } : {}),
  });
  return session;
}

function systemPrompt(
  workspaceFolder: string | undefined,
  store: ContextStore,
  history: { jsonl: string; markdown: string },
): string {
  const storeRel = workspaceFolder ? path.relative(workspaceFolder, store.root) || '.' : store.root;
  const historyRel = store.displayPath(history.markdown);
  return [
    "You are a coding agent working in the user's VS Code workspace. Use the tools to read, search and change files and to run commands.",
    `Long tool outputs, terminal logs and chat history are kept as files under ${storeRel}/ (read-only to you). When a result says "Full output ... - read, tail or grep it", or an old observation reads "Old environment output: (N lines omitted; full text: PATH)", read, tail or grep that file instead of re-running the command.`,
    `This conversation is also written to ${historyRel}: if a summary left something out, grep it there.`,
    'Be concise. When the task is done, answer without calling a tool.',
  ].join('\n');
}
