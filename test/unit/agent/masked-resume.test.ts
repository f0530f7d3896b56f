// Masking is reversible across a resume: a session whose observations were masked, continued under another
// strategy (from History, or after the picker changed it), sends the full text wherever the new strategy
// keeps it, and where it masks, placeholders that name files holding that very text. Real store, real
// history file, real scripted server, real tokenizer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { sessionStateFromHistory } from '../../../src/core/agent/resume';
import type { SessionState } from '../../../src/core/agent/session-state';
import type { Message } from '../../../src/core/messages';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, loadSession } from '../../../src/core/store/history';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { parseMaskPlaceholder } from '../../../src/core/strategies/placeholder';
import type { StrategyName } from '../../../src/core/strategies/types';
import { createTokenizer } from '../../../src/core/tokens';
import { silentLogger } from '../../../src/core/ports';
import { HistorySink, SessionHistory } from '../../../src/extension/agent/sessionHistory';
import { tempDir } from '../store/helpers';
import { harness, readSteps } from './helpers';

const READS = 9;
const OPTIONS = { window: 3, contextWindow: 1_000_000, cachedPrice: 1, cacheWritePrice: 1 };

/** A masking session of READS file reads, written to its history file as the panel writes it. */
async function maskedSession(ws: string): Promise<{ store: ContextStore; originals: Message[]; state: SessionState }> {
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const sink = new HistorySink();
  const h = await harness([...readSteps(READS), { reply: { text: 'Done.' } }], {
    strategy: 'masking',
    strategyOptions: OPTIONS,
    sessionId: 'chat-1',
    longOutput: new ToolOutputStore(store, createTokenizer('o200k')),
    onCall: sink.onCall,
    onMessage: sink.onMessage,
    onSummaryCall: sink.onSummaryCall,
    onStrategyState: sink.onStrategyState,
  });
  const history = SessionHistory.open(await HistoryWriter.open(store, 'chat-1'), 0, [], silentLogger);
  sink.session = h.agent;
  sink.history = history;
  h.agent.on((e) => {
    if (e.type === 'context-prepared' && e.masked.length > 0) void history.masked(e.masked);
  });
  try {
    assert.equal(await h.agent.send('Read the files.'), 'completed');
    const last = h.server.chatRequests().at(-1)!;
    const masked = last.messages.filter((m) => m.role === 'tool' && parseMaskPlaceholder(String(m.content)));
    assert.ok(masked.length >= READS - 3, `masking masked the older reads (${masked.length})`);
    await history.sync(h.agent.messages);
    await history.close();
    return { store, originals: h.agent.messages.filter((m) => m.role === 'tool'), state: h.agent.state() };
  } finally {
    await h.close();
  }
}

/** The tool results of the first request a session continued under `strategy` sends. */
async function resumedRequest(
  store: ContextStore,
  strategy: StrategyName,
  restore: SessionState,
): Promise<{ id: string; content: string }[]> {
  const h = await harness([{ reply: { text: 'Nothing left.' } }], {
    strategy,
    strategyOptions: OPTIONS,
    sessionId: 'chat-1',
    restore,
    longOutput: new ToolOutputStore(store, createTokenizer('o200k')),
  });
  try {
    assert.equal(await h.agent.send('Anything left?'), 'completed');
    const request = h.server.chatRequests()[0]!;
    return request.messages
      .filter((m) => m.role === 'tool')
      .map((m) => ({ id: String(m.tool_call_id), content: String(m.content) }));
  } finally {
    await h.close();
  }
}

const fromFile = async (store: ContextStore, strategy: StrategyName): Promise<SessionState> =>
  sessionStateFromHistory((await loadSession(store, 'chat-1')).records, {
    id: 'chat-1',
    provider: 'openai',
    model: 'scripted',
    strategy,
    now: 0,
  });

for (const strategy of ['raw', 'summary'] as const) {
  for (const via of ['History', 'the picker'] as const) {
    test(`masking -> ${strategy}, resumed from ${via}: every observation is sent in full again`, async (t) => {
      const ws = await tempDir(t);
      const { store, originals, state } = await maskedSession(ws);
      const restore = via === 'History' ? await fromFile(store, strategy) : structuredClone(state);
      const sent = await resumedRequest(store, strategy, restore);
      assert.equal(sent.length, READS);
      for (const original of originals) {
        const got = sent.find((m) => m.id === original.toolCallId);
        assert.equal(got?.content, original.content, `the full text of ${original.toolCallId}`);
      }
    });
  }
}

test('masking -> cache-aware and hybrid, resumed from History: what is masked names a file with the full text', async (t) => {
  const ws = await tempDir(t);
  const { store, originals } = await maskedSession(ws);
  for (const strategy of ['cache-aware', 'hybrid', 'masking'] as const) {
    const sent = await resumedRequest(store, strategy, await fromFile(store, strategy));
    assert.equal(sent.length, READS);
    if (strategy === 'masking')
      assert.ok(
        sent.some((m) => parseMaskPlaceholder(m.content)),
        'masking masks again',
      );
    for (const m of sent) {
      const original = originals.find((o) => o.toolCallId === m.id)!;
      const parsed = parseMaskPlaceholder(m.content);
      if (!parsed) {
        assert.equal(m.content, original.content, `${strategy}: unmasked is whole`);
        continue;
      }
      assert.ok(parsed.storedAt, `${strategy}: a placeholder without a file: ${m.content}`);
      assert.equal(readFileSync(path.join(ws, parsed.storedAt), 'utf8'), original.content);
    }
  }
});
