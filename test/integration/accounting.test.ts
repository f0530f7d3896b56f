// Every figure the meter shows can be recomputed from disk: a scripted session of more than 20 calls whose
// server reports usage (cached tokens included), then `context-desk replay --format json` on the session's
// history file gives the same totals, and a resumed session's meter shows them again.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ContextDeskApi } from '../../src/extension/extension';
import type { ContextMeter } from '../../src/protocol/chat';
import type { ReplyStep } from '../support/scripted-model-server';
import { AgentDriver } from './driver';
import { api, extensionPath, waitFor } from './helpers';

const CALLS = 22;
// US$ per million tokens for the scripted model, from the user's price setting.
const PRICE = { input: 2, cachedInput: 0.2, cacheWrite: 2.5, output: 8 };

interface ReplayJson {
  calls: number;
  recorded: {
    calls: number;
    inputTokens: number;
    cachedTokens: number;
    outputTokens: number;
    sentTokens: number;
    costUnits: number;
    costUsd: number;
  };
}

function steps(): ReplyStep[] {
  const out: ReplyStep[] = [];
  for (let i = 0; i < CALLS - 1; i++)
    out.push({
      reply: { text: `Looking at the folder (${i}).`, toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
      usage: { promptTokens: 1500 + 120 * i, completionTokens: 30 + i, cachedTokens: i === 0 ? 0 : 1024 + 100 * i },
    });
  out.push({
    reply: { text: 'Done looking.' },
    usage: { promptTokens: 4200, completionTokens: 12, cachedTokens: 3900 },
  });
  return out;
}

async function replay(file: string): Promise<ReplayJson> {
  const cli = path.join(extensionPath(), 'dist', 'cli.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'replay', file, '--format', 'json'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as ReplayJson;
}

/** The meter's figures; costs rounded to 1e-9 (sums added in another order differ in the last bits). */
function figures(m: ContextMeter) {
  const round = (n: number | undefined) => (n === undefined ? n : Math.round(n * 1e9) / 1e9);
  return {
    calls: m.calls,
    costUnits: round(m.costUnits),
    costUsd: round(m.costUsd),
    totals: m.totals,
    tokensInWindow: m.tokensInWindow,
    reported: m.reported,
  };
}

describe('Accounting: the meter, the history file and replay agree', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let d: AgentDriver;

  before(async () => {
    a = await api();
    d = new AgentDriver(a);
  });

  after(async () => {
    await d.dispose();
  });

  it(`a ${CALLS}-call session: tokens exact, cost within 0.5 %, and the same after resume`, async () => {
    await d.script(steps(), { prices: { scripted: PRICE }, strategy: 'cache-aware' });
    await d.send('Look at the folder, again and again.');
    assert.equal(await d.finished(60_000), 'completed');
    const id = a.chat().snapshot.sessionId;
    const meter = a.chat().snapshot.meter;
    assert.equal(meter.calls, CALLS);
    assert.ok(meter.costUsd !== undefined, 'the price from contextDesk.prices gives money');
    assert.deepEqual(meter.price, { model: 'scripted', source: 'setting' });
    assert.deepEqual(
      meter.reported,
      { inputTokens: 4200, cachedTokens: 3900, outputTokens: 12 },
      'the last call as reported',
    );

    const file = path.join(a.contextFolder(), 'history', `${id}.jsonl`);
    const callLines = (): number =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"call"')).length;
    await waitFor(() => fs.existsSync(file) && callLines() === CALLS, 10_000, 'every call record in the history');

    const r = await replay(file);
    const t = meter.totals!;
    assert.equal(r.calls, CALLS);
    assert.equal(r.recorded.calls, CALLS, 'every call reported its usage');
    assert.equal(r.recorded.inputTokens, t.reportedInputTokens);
    assert.equal(r.recorded.cachedTokens, t.reportedCachedTokens);
    assert.equal(r.recorded.outputTokens, t.outputTokens);
    assert.equal(r.recorded.sentTokens, t.tokensSent);
    const expectedInput = steps().reduce((n, s) => n + s.usage!.promptTokens!, 0);
    assert.equal(t.reportedInputTokens, expectedInput, 'the meter sums what the server reported');
    assert.ok(Math.abs(r.recorded.costUnits - meter.costUnits) / meter.costUnits < 0.005);
    assert.ok(Math.abs(r.recorded.costUsd - meter.costUsd) / meter.costUsd < 0.005);

    const before = figures(meter);
    a.chat().newChat();
    assert.equal(a.chat().snapshot.meter.calls, 0);
    assert.equal(await a.chat().resumeSession(id), true);
    const resumed = a.chat().snapshot;
    assert.deepEqual(figures(resumed.meter), before, 'the resumed meter shows the recorded figures');
    assert.equal(resumed.series.length, CALLS, 'and the plot its calls');
    assert.ok(resumed.items.some((i) => i.kind === 'notice' && /goes on from its 22 recorded calls/.test(i.text)));
    const listed = await refreshed(a, id);
    assert.equal(listed?.calls, CALLS);
    assert.ok(Math.abs(listed!.costUsd! - meter.costUsd) < 1e-9, 'History shows the same cost');
  });
});

async function refreshed(a: ContextDeskApi, id: string) {
  await a.chat().refreshPastSessions();
  return a.chat().snapshot.pastSessions.find((s) => s.id === id);
}
