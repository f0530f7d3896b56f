import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { createTokenizer } from '../../src/core/tokens';
import { loadTrajectoryFile } from '../../src/core/trajectories';
import type { Message } from '../../src/core/messages';

const fixtures = join(__dirname, '../fixtures/trajectories');

interface StrategyJson {
  inputTokens: number;
  ratioToRaw: number;
  cost: number;
  costRatioToRaw: number;
  peakContextTokens: number;
  cachedTokens: number;
  maskedObservations: number;
  summaryCalls: number;
  [key: string]: unknown;
}

interface JsonReport {
  tokenizer: string;
  trajectories: number;
  calls: number;
  skipped: { file: string; error: string }[];
  strategies: Record<string, StrategyJson>;
  perTrajectory?: Record<string, Record<string, StrategyJson>>;
}

/** Raw history: call k sends every message before the k-th assistant message. */
function rawInputTokens(messages: Message[], count: (m: Message) => number): number {
  let total = 0;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const h of messages.slice(0, i)) total += count(h);
  });
  return total;
}

test('raw input tokens equal the sum computed independently from the tokenizer', async () => {
  const file = join(fixtures, 'mini-swe-agent.traj.json');
  const r = await runCli(['replay', file, '--format', 'json', '--strategy', 'raw']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  const t = await loadTrajectoryFile(file);
  const tok = createTokenizer('o200k');
  assert.equal(
    report.strategies.raw!.inputTokens,
    rawInputTokens(t.messages, (m) => tok.countMessage(m)),
  );
  assert.equal(report.tokenizer, 'o200k');
  assert.equal(report.trajectories, 1);
  assert.equal(report.calls, 3);
  assert.equal(report.strategies.raw!.ratioToRaw, 1);
  // peak context = the largest single request (the last one for raw history)
  const last = t.messages.slice(0, t.messages.length - 1);
  assert.equal(
    report.strategies.raw!.peakContextTokens,
    last.reduce((s, m) => s + tok.countMessage(m), 0),
  );
});

test('the JSON shape has every documented field for every strategy', async () => {
  const r = await runCli(['replay', fixtures, '--format', 'json', '--window', '1']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  assert.equal(report.trajectories, 7);
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(Object.keys(report.strategies), [
    'raw',
    'masking',
    'summary',
    'hybrid',
    'retry-filter',
    'sliding-window',
    'cache-aware',
  ]);
  for (const s of Object.values(report.strategies)) {
    for (const k of [
      'inputTokens',
      'ratioToRaw',
      'cost',
      'costRatioToRaw',
      'peakContextTokens',
      'cachedTokens',
      'maskedObservations',
      'summaryCalls',
    ]) {
      assert.equal(typeof s[k], 'number', k);
    }
  }
  const masking = report.strategies.masking!;
  assert.ok(masking.maskedObservations > 0, 'window 1 masks the older observations');
  assert.ok(masking.inputTokens < report.strategies.raw!.inputTokens);
  assert.equal(masking.ratioToRaw, Math.round((masking.inputTokens / report.strategies.raw!.inputTokens) * 1e4) / 1e4);
});

test('cl100k and chars4 give different counts; chars4 is labelled an estimate', async () => {
  const file = join(fixtures, 'openai-chat.json');
  const a = JSON.parse(
    (await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', '--tokenizer', 'cl100k'])).out,
  ) as JsonReport;
  const t = await loadTrajectoryFile(file);
  const cl = createTokenizer('cl100k');
  assert.equal(
    a.strategies.raw!.inputTokens,
    rawInputTokens(t.messages, (m) => cl.countMessage(m)),
  );
  const table = await runCli(['replay', file, '--strategy', 'raw', '--tokenizer', 'chars4']);
  assert.match(table.out, /ESTIMATE/);
});

test('the cached price changes the cost, not the tokens', async () => {
  const file = join(fixtures, 'swe-agent.history.json');
  const cheap = JSON.parse(
    (await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', '--cached-price', '0.1'])).out,
  ) as JsonReport;
  const full = JSON.parse(
    (await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', '--cached-price', '1'])).out,
  ) as JsonReport;
  assert.equal(cheap.strategies.raw!.inputTokens, full.strategies.raw!.inputTokens);
  assert.equal(full.strategies.raw!.cost, full.strategies.raw!.inputTokens);
  const c = cheap.strategies.raw!;
  assert.equal(c.cost, Math.round((c.cachedTokens * 0.1 + (c.inputTokens - c.cachedTokens)) * 100) / 100);
});

test('table and CSV name every strategy; --per-trajectory adds a row per trajectory', async () => {
  const table = await runCli(['replay', fixtures, '--strategy', 'masking,cache-aware', '--per-trajectory']);
  assert.equal(table.code, 0);
  assert.match(table.out, /^raw\s+7\s+18/m);
  assert.match(table.out, /^masking\s/m);
  assert.match(table.out, /^cache-aware\s/m);
  assert.doesNotMatch(table.out, /^summary\s/m);
  assert.match(table.out, /Per trajectory:/);
  assert.match(table.out, /acme__text-42/);
  const csv = await runCli(['replay', fixtures, '--strategy', 'masking', '--format', 'csv', '--per-trajectory']);
  const lines = csv.out.trim().split('\n');
  assert.match(lines[0]!, /^scope,strategy,trajectories,calls,inputTokens,ratioToRaw,cost/);
  assert.equal(lines.filter((l) => l.startsWith('total,')).length, 2);
  assert.equal(lines.length, 1 + 2 + 7 * 2);
});

test('--plot writes an SVG with axes, a legend per strategy and the tokenizer in the title', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-plot-'));
  const file = join(dir, 'ctx.svg');
  const r = await runCli([
    'replay',
    join(fixtures, 'mini-swe-agent.traj.json'),
    '--plot',
    file,
    '--strategy',
    'masking',
    '--window',
    '1',
    '--tokenizer',
    'cl100k',
  ]);
  assert.equal(r.code, 0, r.err);
  const svg = readFileSync(file, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /cl100k tokenizer/);
  assert.equal((svg.match(/<polyline class="series"/g) ?? []).length, 2);
  assert.match(svg, /data-strategy="masking"/);
  assert.match(svg, />model call</);
  assert.match(svg, />context tokens</);
});

test('a plot that cannot be written is reported, and the results are still printed', async () => {
  const file = join(tmpdir(), 'no-such-dir-cd', 'x', 'ctx.svg');
  const r = await runCli([
    'replay',
    join(fixtures, 'openai.jsonl'),
    '--strategy',
    'raw',
    '--format',
    'json',
    '--plot',
    file,
  ]);
  assert.equal(r.code, 1);
  assert.match(r.err, /cannot write the plot to .*ctx\.svg: ENOENT/);
  assert.equal((JSON.parse(r.out) as JsonReport).trajectories, 1);
});

test('a bad file is reported and skipped; the rest are replayed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-replay-'));
  copyFileSync(join(fixtures, 'openai-chat.json'), join(dir, 'good.json'));
  writeFileSync(join(dir, 'bad.json'), '{"nope": true}');
  const r = await runCli(['replay', dir, '--format', 'json', '--strategy', 'raw']);
  assert.equal(r.code, 0);
  const report = JSON.parse(r.out) as JsonReport;
  assert.equal(report.trajectories, 1);
  assert.equal(report.skipped.length, 1);
  assert.match(report.skipped[0]!.error, /unrecognised trajectory format/);
  assert.match(r.err, /skipped .*bad\.json/);
});

test('nothing loadable exits 1 with a message; bad options exit 2 naming the option', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-empty-'));
  const none = await runCli(['replay', dir]);
  assert.equal(none.code, 1);
  assert.match(none.err, /no trajectory could be loaded/);
  const cases: [string[], RegExp][] = [
    [['replay'], /at least one trajectory/],
    [['replay', fixtures, '--strategy', 'magic'], /unknown strategy 'magic'/],
    [['replay', fixtures, '--window', '0'], /--window must be an integer >= 1/],
    [['replay', fixtures, '--cached-price', '2'], /--cached-price must be a number from 0 to 1/],
    [['replay', fixtures, '--tokenizer', 'gpt2'], /--tokenizer must be one of/],
    [['replay', fixtures, '--format', 'xml'], /--format must be table, json or csv/],
    [['replay', fixtures, '--plot', 'x.png'], /SVG/],
    [['replay', fixtures, '--bogus'], /bogus/],
  ];
  for (const [argv, message] of cases) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, message);
    assert.equal(r.out, '');
  }
});

test('Ctrl-C stops cleanly: partial results discarded, exit 130', async () => {
  const controller = new AbortController();
  const pending = runCli(['replay', fixtures, '--format', 'json'], { signal: controller.signal });
  setImmediate(() => controller.abort());
  const r = await pending;
  assert.equal(r.code, 130);
  assert.equal(r.out, '');
  assert.match(r.err, /interrupted; partial results discarded/);
});

test('a quick run writes no progress to a non-terminal stderr', async () => {
  const r = await runCli(['replay', join(fixtures, 'openai.jsonl'), '--strategy', 'raw']);
  assert.equal(r.err, '');
});
