// Shared set-up for the agent loop tests: a real scripted server, the real OpenAI provider, a real tokenizer.
import type { AgentEvent } from '../../../src/core/agent/events';
import { AgentSession, type AgentOptions } from '../../../src/core/agent/session';
import { ToolRegistry, type AgentTool } from '../../../src/core/agent/tool-registry';
import type { ChatProvider } from '../../../src/core/agent/provider';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { createTokenizer } from '../../../src/core/tokens';
import {
  startScriptedModelServer,
  type ReplyStep,
  type ScriptStep,
  type ScriptedServer,
} from '../../support/scripted-model-server';

/** Echoes a line count of fake file content, so observations have realistic sizes. */
export const echoTool: AgentTool = {
  name: 'read_file',
  description: 'Reads a file',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  run: (args) =>
    Promise.resolve({
      ok: true,
      text: Array.from(
        { length: 40 },
        (_, i) => `${String(args.path)}:${i + 1}: const value${i} = compute(${i});`,
      ).join('\n'),
    }),
};

export interface Harness {
  server: ScriptedServer;
  agent: AgentSession;
  events: AgentEvent[];
  close(): Promise<void>;
}

export async function harness(
  steps: ScriptStep[],
  options: Partial<AgentOptions> = {},
  timeoutMs = 10_000,
): Promise<Harness> {
  const server = await startScriptedModelServer(steps);
  const agent = new AgentSession({
    provider: new OpenAICompatibleProvider({ baseURL: server.baseURL, timeoutMs }),
    model: 'scripted',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    sleep: () => Promise.resolve(),
    ...options,
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  return { server, agent, events, close: () => server.close() };
}

export function readSteps(n: number): ReplyStep[] {
  return Array.from({ length: n }, (_, i) => ({
    reply: { text: `Reading file ${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `src/file${i}.ts` } }] },
  }));
}

/**
 * Two calls ("Fix the build.", then "Go on.") of a raw-strategy session of `model` at its published price
 * for `provider.id`, sharing a ~1,800-token system prompt (a cacheable prefix); `between` runs between
 * them (a clock moved on). What the provider answers is `provider`'s. Returns every event.
 */
export async function twoPricedCalls(
  model: string,
  provider: ChatProvider,
  options: Partial<AgentOptions> = {},
  between: () => void = () => undefined,
): Promise<AgentEvent[]> {
  const { money, ...prices } = resolvePricing({
    model,
    provider: provider.id,
    cachedPrice: 0.1,
    cacheWritePrice: null,
  });
  const agent = new AgentSession({
    provider,
    model,
    tools: new ToolRegistry([]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent. '.repeat(300),
    strategy: 'raw',
    prices,
    ...(money ? { money } : {}),
    sleep: () => Promise.resolve(),
    ...options,
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  await agent.send('Fix the build.');
  between();
  await agent.send('Go on.');
  return events;
}
