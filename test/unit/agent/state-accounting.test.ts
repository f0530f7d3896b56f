import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import type { ChatProvider, ChatStreamEvent, ProviderUsage } from '../../../src/core/agent/provider';
import { parseSessionState } from '../../../src/core/agent/session-state';
import { ToolRegistry, type AgentTool } from '../../../src/core/agent/tool-registry';
import { ContextStore } from '../../../src/core/store/context-store';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { resolvePricing } from '../../../src/core/cost/pricing';
import { SUMMARIZER_SYSTEM_PROMPT } from '../../../src/core/strategies/checkpoint';
import { createTokenizer } from '../../../src/core/tokens';
import { startScriptedModelServer } from '../../support/scripted-model-server';
import { echoTool, harness, readSteps } from './helpers';

test('the long-output port stores each result; masked observations name the file, in events and in requests', async () => {
  const stored: string[] = [];
  const h = await harness([...readSteps(14), { reply: { text: 'Done.' } }], {
    strategy: 'masking',
    strategyOptions: { window: 3 },
    longOutput: {
      store: (output, meta) => {
        const path = `.context-desk/tool-outputs/${meta.session.slice(0, 8)}-${meta.turn}-${meta.tool}.txt`;
        stored.push(path);
        return Promise.resolve({
          text: `${output.split('\n').slice(0, 3).join('\n')}\n[full output: ${path}]`,
          storedAt: path,
        });
      },
    },
  });
  try {
    await h.agent.send('Go');
    assert.equal(stored.length, 14);
    const last = h.server.chatRequests().at(-1)!;
    const first = last.messages.find((m) => m.role === 'tool')!;
    assert.equal(first.content, `Old environment output: (4 lines omitted; full text: ${stored[0]})`);
    const prepared = h.events.filter((e) => e.type === 'context-prepared').at(-1)!;
    assert.ok(prepared.type === 'context-prepared');
    assert.equal(prepared.masked[0]!.storedAt, stored[0]);
    assert.equal(prepared.masked[0]!.tool, 'read_file');
    const finished = h.events.find((e) => e.type === 'tool-call-finished')!;
    assert.ok(
      finished.type === 'tool-call-finished' &&
        finished.storedAt === stored[0] &&
        finished.preview.includes('[full output:'),
    );
  } finally {
    await h.close();
  }
});

test('accounting: exact tokens, the cached prefix grows, provider-reported usage is kept, cost adds up', async () => {
  const steps = readSteps(5).map((s, i) => ({ ...s, usage: { promptTokens: 1000 + i, cachedTokens: 512 } }));
  // Any shared prefix is estimated cached here (the minimum providers cache has its own test below).
  const h = await harness([...steps, { reply: { text: 'Done.' } }], { strategy: 'raw', minCachedTokens: 0 });
  try {
    await h.agent.send('Go');
    const { calls, cost } = h.agent.state();
    assert.equal(calls.length, 6);
    // The estimate (what the meter shows before the answer) grows with the shared prefix...
    const estimated = h.events.flatMap((e) => (e.type === 'context-prepared' ? [e.cachedTokens] : []));
    assert.equal(estimated[0], 0);
    for (let i = 1; i < calls.length; i++) {
      assert.ok(estimated[i]! > estimated[i - 1]!);
      assert.ok(estimated[i]! < calls[i]!.tokensSent);
      assert.equal(calls[i]!.tokensSent, calls[i]!.rawHistoryTokens, 'raw sends the whole history');
    }
    // ...and once the provider reported a call, its record keeps the provider's figures.
    for (const c of calls.slice(0, -1)) {
      assert.equal(c.billedBy, 'provider');
      assert.deepEqual([c.cachedTokens, c.cacheWriteTokens], [512, c.usage!.inputTokens! - 512]);
    }
    // The last answer's usage gives no cached figure where a prefix was expected cached: billed from our
    // count's cached share, and said to be an estimate.
    assert.equal(calls.at(-1)!.billedBy, 'estimate');
    assert.equal(calls[2]!.cachedTokens, 512);
    assert.equal(calls[2]!.usage?.inputTokens, 1002);
    assert.equal(calls[2]!.usage?.cachedTokens, 512);
    assert.equal(calls[2]!.billedBy, 'provider');
    assert.ok(Math.abs(calls.reduce((n, c) => n + c.cost, 0) - cost) < 1e-6);
    // Billed by what the provider reported: 512 cached tokens at 0.1, the rest at 1, output at 4.
    assert.ok(Math.abs(calls[2]!.cost - (512 * 0.1 + (1002 - 512) + 4 * calls[2]!.outputTokens)) < 1e-9);
  } finally {
    await h.close();
  }
});

test('the state is plain JSON: a restored session continues the same conversation', async () => {
  const h = await harness([
    ...readSteps(2),
    { reply: { text: 'First done.' } },
    ...readSteps(1),
    { reply: { text: 'Second done.' } },
  ]);
  try {
    await h.agent.send('First task');
    const saved = JSON.parse(JSON.stringify(h.agent.state())) as unknown;
    const restored = new AgentSession({
      provider: new OpenAICompatibleProvider({ baseURL: h.server.baseURL }),
      model: 'scripted',
      tools: new ToolRegistry([echoTool]),
      tokenizer: createTokenizer('o200k'),
      restore: parseSessionState(saved),
    });
    assert.equal(await restored.send('Second task'), 'completed');
    const s = restored.state();
    assert.equal(s.id, h.agent.id);
    assert.equal(s.turns, 5);
    const lastReq = h.server.chatRequests().at(-1)!;
    assert.deepEqual(
      lastReq.messages.filter((m) => m.role === 'user').map((m) => m.content),
      ['First task', 'Second task'],
    );
  } finally {
    await h.close();
  }
});

test('bad session state is refused with a clear message', () => {
  assert.throws(() => parseSessionState(null), /not an object/);
  assert.throws(() => parseSessionState({ version: 2 }), /version 2 is not supported/);
  const good = {
    version: 1,
    id: 'x',
    createdAt: 0,
    provider: 'p',
    model: 'm',
    strategy: 'masking',
    messages: [],
    turns: 0,
    calls: [],
    summaryCalls: [],
    cost: 0,
    status: 'idle',
  };
  assert.equal(parseSessionState(good).id, 'x');
  assert.throws(() => parseSessionState({ ...good, strategy: 'magic' }), /unknown strategy "magic"/);
  assert.throws(
    () => parseSessionState({ ...good, messages: [{ role: 'robot', content: '' }] }),
    /messages\[0\]\.role/,
  );
  assert.throws(
    () => parseSessionState({ ...good, messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 1 }] }] }),
    /toolCalls/,
  );
  assert.throws(
    () => parseSessionState({ ...good, messages: [{ role: 'user', content: 'x', origin: 'robot' }] }),
    /messages\[0\]\.origin is "robot"/,
  );
});

test('send refuses an empty message and a second concurrent run', async () => {
  const h = await harness([{ fault: 'hang' }]);
  try {
    await assert.rejects(h.agent.send('  '), /empty/);
    const ac = new AbortController();
    const run = h.agent.send('Go', ac.signal);
    await assert.rejects(h.agent.send('Again'), /already running/);
    ac.abort();
    assert.equal(await run, 'aborted');
  } finally {
    await h.close();
  }
});

test('summaries come from the separate summary model with the checkpoint prompt', async () => {
  const summary = await startScriptedModelServer([
    { reply: { text: 'USER_CONTEXT: fix\nCOMPLETED: read 21 files\nPENDING: none\nCODE_STATE: src/' } },
  ]);
  const h = await harness([...readSteps(32), { reply: { text: 'Done.' } }], {
    strategy: 'summary',
    summaryModel: { provider: new OpenAICompatibleProvider({ baseURL: summary.baseURL }), model: 'small' },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    const asked = summary.chatRequests();
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.model, 'small');
    assert.equal(asked[0]!.temperature, 0.2);
    assert.equal(asked[0]!.tools, undefined);
    assert.ok(asked[0]!.messages[0]!.content!.startsWith(SUMMARIZER_SYSTEM_PROMPT));
    const after = h.server.chatRequests().at(-1)!;
    assert.ok(
      after.messages.some(
        (m) =>
          m.content ===
          'Checkpoint for the last 21 turns:\nUSER_CONTEXT: fix\nCOMPLETED: read 21 files\nPENDING: none\nCODE_STATE: src/',
      ),
    );
    const s = h.agent.state();
    assert.equal(s.summaryCalls.length, 1);
    assert.ok(s.summaryCalls[0]!.inputTokens > 1000);
  } finally {
    await h.close();
    await summary.close();
  }
});

test('a separate summary model is billed at its own price, its output is asked of the budget, and an unknown price gives no money', async () => {
  const run = async (summaryModel: string, completionTokens: number) => {
    const summary = await startScriptedModelServer([
      { reply: { text: 'USER_CONTEXT: fix\nCOMPLETED: read' }, usage: { promptTokens: 5000, completionTokens } },
    ]);
    const pricing = resolvePricing({
      model: summaryModel,
      provider: 'openai',
      cachedPrice: 0.1,
      cacheWritePrice: null,
    });
    const { money, ...prices } = resolvePricing({
      model: 'gpt-4.1',
      provider: 'openai',
      cachedPrice: 0.1,
      cacheWritePrice: null,
    });
    const h = await harness([...readSteps(32), { reply: { text: 'Done.' } }], {
      model: 'gpt-4.1',
      strategy: 'summary',
      prices,
      money: money!,
      budget: { session: { limit: 10_000_000, mode: 'hard' } },
      summaryModel: {
        provider: new OpenAICompatibleProvider({ baseURL: summary.baseURL }),
        model: summaryModel,
        pricing,
      },
    });
    try {
      assert.equal(await h.agent.send('Go'), 'completed');
      const s = h.agent.state();
      const last = s.calls.at(-1)!;
      // What the budget was asked beyond the model calls: the summary's prompt (counted) and its output.
      const beyondCalls = last.budget!.spentTokens - s.calls.reduce((n, c) => n + c.tokensSent + c.outputTokens, 0);
      return { rec: s.summaryCalls[0]!, beyondCalls };
    } finally {
      await h.close();
      await summary.close();
    }
  };
  const nano = await run('gpt-4.1-nano', 600);
  const usd = (5000 * 0.1 + 600 * 0.4) / 1_000_000;
  assert.ok(Math.abs(nano.rec.costUsd! - usd) < 1e-12, `${nano.rec.costUsd} vs ${usd}`);
  // In the session's units (gpt-4.1's uncached input, $2 per million).
  assert.ok(Math.abs(nano.rec.cost - usd / 2e-6) < 1e-6, String(nano.rec.cost));
  const shorter = await run('gpt-4.1-nano', 10);
  assert.equal(nano.beyondCalls - shorter.beyondCalls, 590);
  const unknown = await run('some-local-model', 600);
  assert.equal(unknown.rec.costUsd, undefined);
  assert.equal(unknown.rec.cost, 5000 + 600 * 4);
});

test('onMessage sees every message added, in order, with its index and turn; a throwing hook does not stop the run', async () => {
  const seen: [number, string, number][] = [];
  const h = await harness([...readSteps(2), { reply: { text: 'Done.' } }], {
    onMessage: (m, index, turn) => {
      seen.push([index, m.role, turn]);
      if (index === 2) throw new Error('disk full');
    },
  });
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    assert.deepEqual(seen, [
      [1, 'user', 0],
      [2, 'assistant', 1],
      [3, 'tool', 1],
      [4, 'assistant', 2],
      [5, 'tool', 2],
      [6, 'assistant', 3],
    ]);
    // Every message says who wrote it; the system prompt is the host's and has no origin.
    assert.deepEqual(
      h.agent.state().messages.map((m) => m.origin),
      [undefined, 'person', 'agent', 'environment', 'agent', 'environment', 'agent'],
    );
  } finally {
    await h.close();
  }
});

test('with the real store: long outputs spill into tool-outputs/ and masked placeholders name those files', async () => {
  const ws = await mkdtemp(path.join(tmpdir(), 'cd-agent-store-'));
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const big: AgentTool = {
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    run: (args) =>
      Promise.resolve({
        ok: true,
        text: Array.from({ length: 2000 }, (_, i) => `${String(args.path)} line ${i}`).join('\n'),
      }),
  };
  const h = await harness([...readSteps(13), { reply: { text: 'Done.' } }], {
    tools: new ToolRegistry([big]),
    strategy: 'masking',
    strategyOptions: { window: 10 },
    longOutput: new ToolOutputStore(store, createTokenizer('o200k')),
  });
  try {
    assert.equal(await h.agent.send('Go'), 'completed');
    const first = h.agent.state().messages.find((m) => m.role === 'tool')!;
    assert.ok(first.storedAt && first.storedAt.startsWith('.context-desk/tool-outputs/'), first.storedAt);
    assert.ok(first.content.length < 8000, 'the model got a preview, not 2000 lines');
    const full = await readFile(path.join(ws, first.storedAt), 'utf8');
    assert.equal(full.split('\n').filter(Boolean).length, 2000);
    const lastReq = h.server.chatRequests().at(-1)!;
    const placeholder = lastReq.messages.find((m) => m.role === 'tool')!.content!;
    assert.match(
      placeholder,
      new RegExp(
        `^Old environment output: \\(\\d+ lines omitted; full text: ${first.storedAt.replace(/[.]/g, '\\.')}\\)$`,
      ),
    );
  } finally {
    await h.close();
    await rm(ws, { recursive: true, force: true });
  }
});

/** A provider that reads a file `reads` times, then answers; it reports `usage` (none by default). */
function fakeProvider(reads: number, usage?: ProviderUsage): ChatProvider {
  let n = 0;
  return {
    id: 'fake',
    async *chat(): AsyncIterable<ChatStreamEvent> {
      await Promise.resolve();
      const k = n++;
      if (k < reads) {
        yield { type: 'text-delta', text: `Reading file ${k}.` };
        yield { type: 'tool-call', call: { id: `c${k}`, name: 'read_file', arguments: `{"path":"f${k}.ts"}` } };
      } else yield { type: 'text-delta', text: 'Done.' };
      if (usage) yield { type: 'usage', usage };
      yield { type: 'finish', reason: k < reads ? 'tool_calls' : 'stop' };
    },
  };
}

/** A raw-strategy session with an echo tool and explicit prices, on `provider`. */
// A model o200k counts exactly: unreported, its calls are billed by our count (another model's by the
// scaled figures the budget keeps, cost-unreported.test.ts).
const rawSession = (provider: ChatProvider): AgentSession =>
  new AgentSession({
    provider,
    model: 'gpt-4.1',
    tools: new ToolRegistry([echoTool]),
    tokenizer: createTokenizer('o200k'),
    systemPrompt: 'You are a coding agent.',
    strategy: 'raw',
    prices: { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 4 },
  });

test('without reported usage, a short chat is estimated uncached until the shared prefix reaches 1,024 tokens (records, meter, cost)', async () => {
  const agent = rawSession(fakeProvider(5));
  const prepared: number[] = [];
  agent.on((e) => void (e.type === 'context-prepared' && prepared.push(e.cachedTokens)));
  await agent.send('Go');
  const { calls, cost } = agent.state();
  assert.equal(calls.length, 6);
  let short = 0;
  for (const [i, c] of calls.entries()) {
    const shared = i === 0 ? 0 : calls[i - 1]!.tokensSent - 3; // the previous prompt, less its reply priming
    if (i > 0 && shared < 1024) short++;
    assert.equal(c.billedBy, 'estimate');
    assert.ok(c.cachedTokens === 0 || c.cachedTokens >= 1024, `call ${i}: ${c.cachedTokens}`);
    assert.equal(c.cachedTokens === 0, shared < 1024, `call ${i}: ${c.cachedTokens} cached of ${shared} shared`);
    assert.equal(c.cacheWriteTokens, c.tokensSent - c.cachedTokens);
    assert.ok(
      Math.abs(c.cost - (c.cachedTokens * 0.1 + (c.tokensSent - c.cachedTokens) * 1.25 + c.outputTokens * 4)) < 1e-9,
    );
    assert.equal(prepared[i], c.cachedTokens, 'the meter shows what the record keeps');
  }
  assert.ok(short >= 1 && short < calls.length - 1, `${short} calls under the minimum`);
  assert.ok(Math.abs(calls.reduce((n, c) => n + c.cost, 0) - cost) < 1e-6);

  // What a provider reports wins: billed by its 900 cached tokens, which the record keeps (the estimate,
  // a short shared prefix cached none, was only the meter's figure until the answer came).
  const reported = rawSession(fakeProvider(1, { inputTokens: 2000, cachedTokens: 900, outputTokens: 10 }));
  const estimates: number[] = [];
  reported.on((e) => void (e.type === 'context-prepared' && estimates.push(e.cachedTokens)));
  await reported.send('Go');
  const second = reported.state().calls[1]!;
  assert.equal(estimates[1], 0, 'the estimate: a short shared prefix');
  assert.equal(second.cachedTokens, 900, "the provider's figure");
  assert.equal(second.billedBy, 'provider');
  assert.ok(Math.abs(second.cost - (900 * 0.1 + 1100 * 1.25 + 10 * 4)) < 1e-9);
});
