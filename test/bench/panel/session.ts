// A long agent session as the host would post it to the panel: chat patches only (src/protocol), so the
// benchmark does not depend on how the panel lays them out. Every call: an assistant turn that streams
// its text, a tool card that runs and finishes with a preview, a plot point and the meter; older
// observations get masked the way the masking window does.
import { applyChatPatches } from '../../../src/protocol/chatPatch';
import type { ChatPatch, ChatSnapshot, ContextMeter } from '../../../src/protocol/chat';

const WINDOW = 10;

export function emptyChat(): ChatSnapshot {
  return {
    sessionId: 'bench',
    status: 'idle',
    strategy: 'masking',
    strategies: ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'],
    model: 'openai-compatible/scripted',
    models: ['scripted'],
    setup: { provider: 'openai-compatible', ready: true, endpoint: 'http://127.0.0.1:11434/v1' },
    items: [],
    meter: meter(0),
    series: [],
    pastSessions: [],
  };
}

function meter(calls: number): ContextMeter {
  return {
    tokensInWindow: 8_000 + (calls % WINDOW) * 1_500,
    contextWindow: 128_000,
    cachedTokens: 6_000,
    rawHistoryTokens: 8_000 + calls * 1_500,
    costUnits: calls * 9_000,
    calls,
    maskedObservations: Math.max(0, calls - WINDOW),
    estimated: false,
  };
}

/** The patches of call `n` (1-based), its text streamed in `chunks` pieces. */
export function callPatches(n: number, chunks = 8): ChatPatch[][] {
  const id = `a${n}`;
  const callId = `c${n}`;
  const text = `Call ${n}: reading **src/module${n % 40}.ts** to check how \`build()\` handles the target, then running the tests again.`;
  const tool = {
    callId,
    tool: n % 3 === 0 ? 'run_command' : 'read_file',
    arguments: JSON.stringify(
      n % 3 === 0 ? { command: `npm test -- --grep case${n}` } : { path: `src/module${n % 40}.ts` },
    ),
  };
  const steps: ChatPatch[][] = [
    [{ op: 'upsertItem', item: { kind: 'assistant', id, turn: n, text: '', streaming: true, tools: [] } }],
  ];
  const size = Math.ceil(text.length / chunks);
  for (let i = 0; i < text.length; i += size) steps.push([{ op: 'appendText', id, text: text.slice(i, i + size) }]);
  const running = { ...tool, state: 'running' as const };
  steps.push([
    { op: 'upsertItem', item: { kind: 'assistant', id, turn: n, text, streaming: false, tools: [running] } },
  ]);
  const preview = Array.from({ length: 12 }, (_, i) => `  ${n}:${i + 1}  ${'x'.repeat(20 + ((n * i) % 50))} ok`).join(
    '\n',
  );
  const done = {
    ...tool,
    state: n % 23 === 0 ? ('error' as const) : ('ok' as const),
    durationMs: 40 + (n % 400),
    preview,
    storedAt: `.context-desk/tool-outputs/bench/${callId}.txt`,
  };
  const last: ChatPatch[] = [
    { op: 'upsertItem', item: { kind: 'assistant', id, turn: n, text, streaming: false, tools: [done] } },
    { op: 'point', point: { call: n, sent: 8_000 + (n % WINDOW) * 1_500, raw: 8_000 + n * 1_500, cached: 6_000 } },
    { op: 'meter', meter: meter(n) },
  ];
  // The observation that leaves the masking window is replaced by its placeholder.
  if (n > WINDOW) last.push({ op: 'masked', callIds: [`c${n - WINDOW}`], lines: { [`c${n - WINDOW}`]: 200 + n } });
  steps.push(last);
  return steps;
}

/** A user message, then `calls` calls, as a snapshot (what `init` sends when the panel opens). */
export function sessionSnapshot(calls: number): ChatSnapshot {
  let s = applyChatPatches(emptyChat(), [
    { op: 'upsertItem', item: { kind: 'user', id: 'u1', text: 'Fix the failing build, step by step.', at: 1 } },
    { op: 'status', status: 'running' },
  ]);
  for (let n = 1; n <= calls; n++) for (const step of callPatches(n)) s = applyChatPatches(s, step);
  return s;
}
