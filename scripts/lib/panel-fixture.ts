// The chat and setup form the panel preview (scripts/panel-preview.ts) shows: a long conversation with
// tool calls, masked observations, a meter, a plot series, an approval and past sessions.
import type { ChatItem, ChatSnapshot, CallPoint } from '../../src/protocol/chat';
import type { SetupForm } from '../../src/protocol/setup';

export const SETUP_FORM: SetupForm = {
  provider: 'openai-compatible',
  baseUrls: { 'openai-compatible': 'http://127.0.0.1:11434/v1', anthropic: '' },
  model: 'qwen2.5-coder:14b',
  contextWindow: 128_000,
  keyStored: [],
  providers: [
    {
      id: 'openai-compatible',
      label: 'OpenAI-compatible endpoint',
      description: 'Ollama, vLLM, LM Studio or a hosted API.',
      baseUrl: { default: 'http://127.0.0.1:11434/v1', placeholder: 'http://127.0.0.1:11434/v1' },
      key: 'optional',
      model: 'listed',
    },
    { id: 'demo', label: 'Demo model (scripted, no network)', description: 'A script.', key: 'none', model: 'fixed' },
  ],
};

export function richChat(turns: number): ChatSnapshot {
  const items: ChatItem[] = [];
  const series: CallPoint[] = [];
  let raw = 2_000;
  for (let t = 1; t <= turns; t++) {
    items.push({
      kind: 'user',
      id: `u${t}`,
      text: t === 1 ? 'Why does the build fail on CI?' : `Next step ${t}, please.`,
      at: t,
    });
    const masked = t < turns - 10 && t % 3 === 0;
    items.push({
      kind: 'assistant',
      id: `a${t}`,
      turn: t,
      streaming: false,
      text:
        t % 4 === 0
          ? `Found it in **src/build.ts** — the \`target\` is wrong:\n\n\`\`\`ts\nexport const target = 'node20';\n\`\`\`\n\n- run the tests\n- check the lockfile`
          : `Reading the files to answer turn ${t}.`,
      tools: [
        {
          callId: `c${t}`,
          tool: t % 2 ? 'read_file' : 'run_command',
          arguments: JSON.stringify(t % 2 ? { path: `src/mod${t}.ts` } : { command: 'npm test' }),
          state: t % 17 === 0 ? 'error' : 'ok',
          durationMs: 120 + t * 7,
          preview: Array.from({ length: 6 }, (_, i) => `line ${i + 1} of output ${t}`).join('\n'),
          storedAt: `.context-desk/outputs/c${t}.txt`,
          masked,
          ...(masked ? { maskedLines: 240 + t } : {}),
        },
      ],
    });
    raw += 1_800;
    series.push({
      call: t,
      raw,
      sent: Math.round(Math.min(raw, 12_000 + (raw % 9_000))),
      cached: Math.round(raw * 0.4),
    });
  }
  items.push({
    kind: 'notice',
    id: 'n1',
    level: 'warning',
    text: 'Budget at 85%.',
    action: { label: 'Show Log', action: 'showLog' },
  });
  return {
    sessionId: 's1',
    status: 'running',
    strategy: 'cache-aware',
    strategies: ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'],
    model: 'openai-compatible/gpt-4.1-mini',
    models: ['gpt-4.1-mini', 'gpt-4.1'],
    setup: { provider: 'openai-compatible', ready: true, endpoint: 'http://127.0.0.1:11434/v1' },
    items,
    meter: {
      tokensInWindow: 41_230,
      contextWindow: 128_000,
      cachedTokens: 30_100,
      rawHistoryTokens: raw,
      costUnits: 512_000,
      costUsd: 0.2048,
      calls: turns,
      maskedObservations: items.filter((i) => i.kind === 'assistant' && i.tools.some((x) => x.masked)).length,
      estimated: false,
      budget: { state: 'warning', usedPercent: 85, limit: 600_000 },
    },
    series,
    approval: {
      id: 'ap1',
      kind: 'command',
      title: 'Run npm install?',
      detail: 'npm install --save-exact left-pad@1.3.0',
    },
    pastSessions: [
      {
        id: 's1',
        title: 'Why does the build fail on CI?',
        createdAt: Date.now(),
        turns,
        calls: turns,
        costUnits: 512_000,
      },
      {
        id: 's0',
        title: 'Fix the flaky test in the parser',
        createdAt: Date.UTC(2026, 10, 20),
        turns: 14,
        calls: 16,
        costUnits: 98_000,
        costUsd: 0.04,
      },
    ],
  };
}
