import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { createTokenizer } from '../../src/core/tokens';
import { IMPORTERS, loadTrajectories, loadTrajectoryFile } from '../../src/core/trajectories';
import type { Message } from '../../src/core/messages';
import type { Trajectory } from '../../src/core/trajectories';

const fixtures = join(__dirname, '../fixtures/trajectories');

interface StrategyJson {
  inputTokens: number;
  ratioToRaw: number | null;
  cost: number;
  costRatioToRaw: number | null;
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

test("replay's help names every tool whose logs it reads", async () => {
  const r = await runCli(['replay', '--help']);
  assert.equal(r.code, 0);
  const help = r.out.replace(/\s+/g, ' ');
  for (const importer of IMPORTERS) assert.ok(help.includes(importer.name.split(' ')[0]!), importer.name);
  assert.ok(help.includes('SDK V1'), 'OpenHands SDK (V1)');
});

test('--include-output prices output at --output-price (4x input by default, as the extension does); --min-cached-prefix', async () => {
  const file = join(fixtures, 'mini-swe-agent.traj.json');
  const run = async (...extra: string[]) => {
    const r = await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', ...extra]);
    assert.equal(r.code, 0, r.err);
    return (JSON.parse(r.out) as JsonReport).strategies.raw!;
  };
  const without = (await run()).cost;
  const output = (await run('--include-output', '--output-price', '1')).cost - without;
  assert.ok(output > 0);
  assert.ok(Math.abs((await run('--include-output')).cost - (without + 4 * output)) < 1e-6);
  assert.ok(Math.abs((await run('--include-output', '--output-price', '6')).cost - (without + 6 * output)) < 1e-6);
  // The fixture's requests are under 1,024 tokens: nothing is cached unless any prefix may be.
  assert.equal((await run()).cachedTokens, 0);
  assert.ok((await run('--min-cached-prefix', '0')).cachedTokens > 0);
  assert.equal((await runCli(['replay', file, '--min-cached-prefix', '1.5'])).code, 2);
  const alone = await runCli(['replay', file, '--output-price', '6']);
  assert.equal(alone.code, 2);
  assert.match(alone.err, /only --include-output adds/);
});

test('raw input tokens equal the sum computed independently from the tokenizer', async () => {
  const file = join(fixtures, 'mini-swe-agent.traj.json');
  const r = await runCli(['replay', file, '--format', 'json', '--strategy', 'raw']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  const [t] = (await loadTrajectoryFile(file)) as [Trajectory];
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
  const last = t.messages.slice(0, t.calls!.at(-1)!.output);
  assert.equal(
    report.strategies.raw!.peakContextTokens,
    last.reduce((s, m) => s + tok.countMessage(m), 0),
  );
});

test('the JSON shape has every documented field for every strategy', async () => {
  const r = await runCli(['replay', fixtures, '--format', 'json', '--window', '1']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  const loaded = await loadTrajectories([fixtures]);
  // Three fixtures are the same runs as three others (an evaluation line and a saved trajectory or folder;
  // one OpenAI chat as an object and as a bare list): replayed once each.
  assert.equal(report.trajectories, loaded.trajectories.length - 3);
  assert.deepEqual(
    report.skipped.map((s) => s.file.slice(fixtures.length + 1)),
    [
      'README.md',
      'claude-code-summaries.jsonl',
      'openai-chat.json',
      'openhands-sdk-output.jsonl',
      'openhands-trajectory.json',
    ],
  );
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
      'cost',
      'peakContextTokens',
      'cachedTokens',
      'maskedObservations',
      'summaryCalls',
    ]) {
      assert.equal(typeof s[k], 'number', k);
    }
    // The fixtures hold media whose tokens are unknown: totals are lower bounds, so their ratios are refused.
    assert.equal(s.lowerBound, true);
    assert.ok((s.uncountedMedia as number) > 0);
    assert.equal(s.ratioToRaw, null);
    assert.equal(s.costRatioToRaw, null);
  }
  const masking = report.strategies.masking!;
  assert.ok(masking.maskedObservations > 0, 'window 1 masks the older observations');
  assert.ok(masking.inputTokens < report.strategies.raw!.inputTokens);
});

test('cl100k and chars4 give different counts; chars4 is labelled an estimate', async () => {
  const file = join(fixtures, 'openai-chat.json');
  const a = JSON.parse(
    (await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', '--tokenizer', 'cl100k'])).out,
  ) as JsonReport;
  const [t] = (await loadTrajectoryFile(file)) as [Trajectory];
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
  const dir = mkdtempSync(join(tmpdir(), 'cd-table-'));
  for (const f of ['mini-swe-agent.traj.json', 'openai-chat.json', 'swe-agent.history.json'])
    copyFileSync(join(fixtures, f), join(dir, f));
  const table = await runCli(['replay', dir, '--strategy', 'masking,cache-aware', '--per-trajectory']);
  assert.equal(table.code, 0);
  assert.match(table.out, /^raw\s+3\s+8/m);
  assert.match(table.out, /^masking\s/m);
  assert.match(table.out, /^cache-aware\s/m);
  assert.doesNotMatch(table.out, /^summary\s/m);
  assert.match(table.out, /Per trajectory:/);
  assert.match(
    table.out,
    /^mini-swe-agent\.traj\.json\s+raw.*\nmini-swe-agent\.traj\.json\s+recorded/m,
    'ids are the paths under the argument',
  );
  const csv = await runCli(['replay', dir, '--strategy', 'masking', '--format', 'csv', '--per-trajectory']);
  const lines = csv.out.trim().split('\n');
  assert.match(lines[0]!, /^scope,strategy,trajectories,calls,inputTokens,ratioToRaw,cost/);
  // raw, recorded (the mini-swe-agent file recorded usage), masking; per trajectory the same.
  assert.deepEqual(
    lines.filter((l) => l.startsWith('total,')).map((l) => l.split(',')[1]),
    ['raw', 'recorded', 'masking'],
  );
  // Per trajectory: raw and masking each, plus a recorded row for the two logs that recorded something
  // (mini-swe-agent: usage per call; SWE-agent: the run's cost only).
  assert.equal(lines.length, 1 + 3 + 3 * 2 + 2);
  assert.match(csv.out, /^swe-agent\.history\.json,recorded,0,0,0,.*,0\.\d+,3,1,,$/m);
});

test('recorded money is said over the calls it covers, not over the calls whose prompt size was recorded', async () => {
  // mini-swe-agent records usage and money per call; SWE-agent only the run's total money.
  const dir = mkdtempSync(join(tmpdir(), 'cd-money-'));
  for (const f of ['mini-swe-agent.traj.json', 'swe-agent.history.json']) copyFileSync(join(fixtures, f), join(dir, f));
  const json = await runCli(['replay', dir, '--strategy', 'raw', '--format', 'json']);
  const rec = (
    JSON.parse(json.out) as {
      recorded: { calls: number; trajectories: number; costUsd: number; costCalls: number; costTrajectories: number };
    }
  ).recorded;
  assert.equal(rec.calls, 3, 'prompt sizes: the 3 mini-swe-agent calls');
  assert.equal(rec.trajectories, 1);
  assert.equal(rec.costUsd, 0.0623, 'money: both runs');
  assert.equal(rec.costCalls, 6, "money: the 3 mini-swe-agent calls and the SWE-agent run's 3");
  assert.equal(rec.costTrajectories, 2);
  const table = await runCli(['replay', dir, '--strategy', 'raw']);
  const promptLine = table.out.split('\n').find((l) => l.startsWith('recorded: '))!;
  assert.match(promptLine, /over the 3 of 6 calls whose prompt size was recorded/);
  assert.doesNotMatch(promptLine, /\$/, 'no money on the line whose scope is the 3 calls');
  assert.match(table.out, /^Recorded cost: \$0\.06 over the 6 calls of 2 trajectories that recorded money/m);
  const csv = await runCli(['replay', dir, '--strategy', 'raw', '--format', 'csv']);
  const lines = csv.out.trim().split('\n');
  assert.match(lines[0]!, /,recordedCostUsd,recordedCostCalls,recordedCostTrajectories,cacheModel,cacheModelBasis$/);
  assert.match(
    lines.find((l) => l.startsWith('total,recorded,'))!,
    /^total,recorded,1,3,.*,0\.0623,6,2,,$/,
  );
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
  assert.match(report.skipped[0]!.error, /JSON of a kind replay does not read/);
  assert.match(r.err, /skipped .*bad\.json/);
});

test('a Claude Code session continued in a new file is replayed once: the old file is a copy of its first calls', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-replay-copies-'));
  const session = readFileSync(join(fixtures, 'claude-code-session.jsonl'), 'utf8');
  writeFileSync(join(dir, 'a-first.jsonl'), session);
  // Continuing copies every record (message and request ids, usage) into the new file, then goes on.
  const more = {
    parentUuid: null,
    isSidechain: false,
    sessionId: 'continued',
    type: 'assistant',
    uuid: 'c1',
    timestamp: '2025-07-02T10:00:00.000Z',
    message: {
      id: 'msg_new',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: [{ type: 'text', text: 'Anything else?' }],
      usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 1500, output_tokens: 5 },
    },
    requestId: 'req_new',
  };
  const ask = { ...more, type: 'user', uuid: 'c0', message: { role: 'user', content: 'One more thing' } };
  writeFileSync(
    join(dir, 'b-continued.jsonl'),
    `${session.trimEnd()}\n${JSON.stringify(ask)}\n${JSON.stringify(more)}\n`,
  );
  const alone = JSON.parse(
    (await runCli(['replay', join(dir, 'b-continued.jsonl'), '--format', 'json', '--strategy', 'raw'])).out,
  ) as JsonReport;
  const r = await runCli(['replay', dir, '--format', 'json', '--strategy', 'raw']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  // The same numbers as the continued session alone: the first file's calls are not counted twice.
  // (The session has a sub-agent: two runs in each file. The main run of the first file is a copy of the
  // continued one; the sub-agent's runs are equal, and the first one read is kept.)
  assert.equal(alone.trajectories, 2);
  assert.equal(report.trajectories, 2);
  assert.equal(report.calls, alone.calls);
  assert.equal(report.strategies.raw!.inputTokens, alone.strategies.raw!.inputTokens);
  assert.deepEqual(
    report.skipped.map((s) => s.error.replace(/ too .*/, '')),
    [
      // The sub-agent's run is the same in both files.
      'b-continued.jsonl#2: the same messages, calls and recorded figures as a-first.jsonl#2 (the same log given twice): replayed once, there',
      'a-first.jsonl#1: its 3 model calls are all in b-continued.jsonl#1',
    ],
  );
  assert.match(report.skipped[1]!.error, /\(the same run, continued or logged again there\): replayed once, there$/);

  // Two forks of the session (the old file went on too): both are kept; the calls they open with are
  // counted once, in the first, and the second's own call is still counted.
  const fork = { ...more, uuid: 'f1', message: { ...more.message, id: 'msg_fork' }, requestId: 'req_fork' };
  writeFileSync(join(dir, 'a-first.jsonl'), `${session.trimEnd()}\n${JSON.stringify(ask)}\n${JSON.stringify(fork)}\n`);
  const both = await runCli(['replay', dir, '--format', 'json', '--strategy', 'raw', '--per-trajectory']);
  const bothReport = JSON.parse(both.out) as JsonReport;
  // a-first#1 and #2, b-continued#1; b-continued#2 (the sub-agent) is a whole copy.
  assert.equal(bothReport.trajectories, 3);
  assert.equal(bothReport.skipped.length, 1);
  assert.equal(bothReport.calls, alone.calls + 1);
  assert.equal(bothReport.perTrajectory!['b-continued.jsonl#1']!.raw!.calls, 1);
  assert.match(
    both.err,
    /b-continued\.jsonl#1: its first 3 model calls are copies of calls made in a-first\.jsonl#1 .*here they are the context it starts from/,
  );
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

test('Claude Code with compaction: raw never exceeds the largest recorded prompt; recorded row is exact', async () => {
  const file = join(fixtures, 'claude-code-compaction.jsonl');
  const r = await runCli(['replay', file, '--format', 'json', '--strategy', 'raw', '--per-trajectory']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as JsonReport & {
    recorded: Record<string, number>;
    agreement: Record<string, { agreement: number }>;
  };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as { isSidechain?: boolean; message?: { usage?: Record<string, number> } });
  const prompts = lines
    .filter((l) => l.isSidechain !== true && l.message?.usage)
    .map((l) => l.message!.usage!)
    .map((u) => u.input_tokens! + u.cache_read_input_tokens! + u.cache_creation_input_tokens!);
  const main = report.perTrajectory!['claude-code-compaction.jsonl#1']!.raw!;
  assert.ok(main.peakContextTokens <= Math.max(...prompts), `${main.peakContextTokens} <= ${Math.max(...prompts)}`);
  const rec = (
    report as unknown as { recordedPerTrajectory: Record<string, { peakContextTokens: number; inputTokens: number }> }
  ).recordedPerTrajectory;
  assert.equal(rec['claude-code-compaction.jsonl#1']!.peakContextTokens, Math.max(...prompts));
  assert.equal(
    rec['claude-code-compaction.jsonl#1']!.inputTokens,
    [...new Set(prompts)].reduce((a, b) => a + b, 0),
  );
  assert.ok(report.agreement['claude-code']!.agreement > 0);
  assert.match(r.err, /warning: claude-code-compaction\.jsonl#1: line 19 is cut off/);
});

test('--dump-contexts writes the exact messages of every call, per trajectory and strategy, secrets redacted', async () => {
  const src = mkdtempSync(join(tmpdir(), 'cd-dump-src-'));
  const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  writeFileSync(
    join(src, 'chat.json'),
    JSON.stringify([
      { role: 'user', content: `token ${key} leaks` },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'next' },
      { role: 'assistant', content: 'two' },
    ]),
  );
  const out = mkdtempSync(join(tmpdir(), 'cd-dump-'));
  const r = await runCli(['replay', src, '--strategy', 'masking', '--dump-contexts', out]);
  assert.equal(r.code, 0, r.err);
  for (const strategy of ['raw', 'masking']) {
    const lines = readFileSync(join(out, 'chat.json', `${strategy}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    const calls = lines.map((l) => JSON.parse(l) as { call: number; messages: Message[] });
    assert.deepEqual(
      calls.map((c) => c.call),
      [0, 1],
    );
    assert.deepEqual(
      calls[1]!.messages.map((m) => m.content.replace(/ghp_\S+|\[REDACTED[^\]]*\]/, 'X')),
      ['token X leaks', 'one', 'next'],
    );
    assert.ok(!lines.join('\n').includes(key), 'the secret never reaches disk');
  }
});

/** What `--dump-contexts` writes for an OpenAI chat of one tool call `name(args)` and its result. */
async function dumpedToolCall(name: string, args: string, ask: string, result: string): Promise<string> {
  const src = mkdtempSync(join(tmpdir(), 'cd-dump-src-'));
  writeFileSync(
    join(src, 'chat.json'),
    JSON.stringify({
      messages: [
        { role: 'user', content: ask },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: args } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: result },
        { role: 'assistant', content: 'done' },
      ],
    }),
  );
  const out = mkdtempSync(join(tmpdir(), 'cd-dump-'));
  const r = await runCli(['replay', src, '--strategy', 'raw', '--dump-contexts', out]);
  assert.equal(r.code, 0, r.err);
  return readFileSync(join(out, 'chat.json', 'raw.jsonl'), 'utf8');
}

test('--dump-contexts redacts tool-call arguments as the history does: a secret-named field goes whole', async () => {
  // `gh secret set`'s tool as an agent calls it: the value says nothing about itself, its key does.
  const args = JSON.stringify({ name: 'DEPLOY_KEY', secret_value: 'Kx8vQ2mN9pL4zz' });
  const text = await dumpedToolCall('set_secret', args, 'store the deploy key', 'ok');
  assert.ok(!text.includes('Kx8vQ2mN9pL4zz'), text);
  assert.match(text, /secret_value\\":\\"\[REDACTED:secret-field\]/);
});

test('--dump-contexts reads tool-call arguments given as a list of command words as the command line', async () => {
  // An MCP tool that runs a program: `-p` and the password are two strings of a list.
  const args = JSON.stringify({ command: 'mysql', args: ['-u', 'root', '-pKx8vQ2mN9pL4zz', 'shop'] });
  const text = await dumpedToolCall('run_program', args, 'count the orders', '42');
  assert.ok(!text.includes('Kx8vQ2mN9pL4zz'), text);
  assert.match(text, /\\"-p\[REDACTED:cli-password\]\\",\\"shop\\"/);
});

test('trajectory ids that are paths become safe folder names in the dump', async () => {
  const src = mkdtempSync(join(tmpdir(), 'cd-dump-src-'));
  mkdirSync(join(src, 'a', '..b'), { recursive: true });
  copyFileSync(join(fixtures, 'openai-chat.json'), join(src, 'a', '..b', 'x y.json'));
  const out = mkdtempSync(join(tmpdir(), 'cd-dump-'));
  const r = await runCli(['replay', src, '--strategy', 'raw', '--dump-contexts', out]);
  assert.equal(r.code, 0, r.err);
  const folders = readdirSync(out);
  assert.equal(folders.length, 1);
  assert.match(folders[0]!, /^[A-Za-z0-9][A-Za-z0-9._-]*$/);
  assert.ok(existsSync(join(out, folders[0]!, 'raw.jsonl')));
});

test('a FIFO and a file with control characters in its name are reported safely, never waited on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-fifo-'));
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  const hostile = join(dir, 'evil\u001b]52;c;aGk=\u0007.json');
  writeFileSync(hostile, '\u001b[2J\u0000binary');
  const r = await runCli(['replay', join(dir, 'pipe.json'), hostile]);
  assert.equal(r.code, 1);
  assert.match(r.err, /pipe\.json: not a regular file: a FIFO/);
  assert.match(r.err, /evil\\u001b\]52;c;aGk=\\u0007\.json: a binary file/);

  assert.doesNotMatch(r.err, /[\u0000\u0007\u001b]/);
});

test('a log whose name holds control characters is shown escaped in the table, CSV and plot', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-evil-'));
  copyFileSync(join(fixtures, 'openai-chat.json'), join(dir, 'evil\u001b[2J\u0007.json'));
  const plot = join(dir, 'p.svg');
  for (const format of ['table', 'csv']) {
    const r = await runCli([
      'replay',
      dir,
      '--strategy',
      'raw',
      '--per-trajectory',
      '--format',
      format,
      '--plot',
      plot,
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /evil\\u001b\[2J\\u0007\.json/);

    assert.doesNotMatch(r.out + r.err + readFileSync(plot, 'utf8'), /[\u0007\u001b]/);
  }
});

test('--dump-contexts refuses a folder that is a link: nothing is written where it points', async () => {
  const src = mkdtempSync(join(tmpdir(), 'cd-dump-src-'));
  copyFileSync(join(fixtures, 'openai-chat.json'), join(src, 'chat.json'));
  const base = mkdtempSync(join(tmpdir(), 'cd-dump-link-'));
  const outside = join(base, 'outside');
  mkdirSync(outside);
  // A cloned repository ships `dumps -> ../outside`; the user runs replay with `--dump-contexts dumps/`.
  symlinkSync(outside, join(base, 'dumps'));
  for (const named of [join(base, 'dumps'), join(base, 'dumps') + '/']) {
    const r = await runCli(['replay', src, '--strategy', 'raw', '--dump-contexts', named]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /is a link; name the real path/);
    assert.deepEqual(readdirSync(outside), []);
  }
});

test('a plot of 150,000 calls is drawn (its axes were found with a spread that overflowed the stack)', async () => {
  const { renderPlot } = await import('../../src/cli/replay/plot');
  type Run = Parameters<typeof renderPlot>[0][number];
  const calls = Array.from({ length: 150_000 }, (_, i) => ({ contextTokens: 1000 + (i % 7) * 100 }));
  const run = { strategy: 'raw', totals: {}, replays: [{ calls }] } as unknown as Run;
  const svg = renderPlot([run], 'o200k', true);
  assert.match(svg, /^<svg /);
  assert.match(svg, />140001</, 'the x axis reaches the last calls');
  assert.match(svg, />2k</, 'the y axis reaches the largest context (1,600)');
});

test('--plot and --dump-contexts never write through a link in the folder the command runs in', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'cd-links-'));
  const victim = mkdtempSync(join(tmpdir(), 'cd-victim-'));
  writeFileSync(join(victim, '.profile'), 'mine');
  symlinkSync(join(victim, '.profile'), join(ws, 'plot.svg'));
  symlinkSync(join(victim, 'autostart.desktop'), join(ws, 'dangling.svg'));
  symlinkSync(victim, join(ws, 'out'));
  const log = join(fixtures, 'openai.jsonl');
  for (const plot of ['plot.svg', 'dangling.svg', 'out/plot.svg']) {
    const r = await runCli(['replay', log, '--strategy', 'raw', '--plot', plot], { cwd: ws });
    assert.equal(r.code, 1, plot);
    assert.match(r.err, /cannot write the plot to .*is a link; name the real path/);
  }
  const dump = await runCli(['replay', log, '--strategy', 'raw', '--dump-contexts', 'out/dump'], { cwd: ws });
  assert.equal(dump.code, 2);
  assert.match(dump.err, /--dump-contexts out\/dump: .*out is a link/);
  assert.deepEqual(readdirSync(victim), ['.profile']);
  assert.equal(readFileSync(join(victim, '.profile'), 'utf8'), 'mine');
  // A real folder is fine, and a plot written there replaces nothing but itself.
  const ok = await runCli(['replay', log, '--strategy', 'raw', '--plot', 'real.svg'], { cwd: ws });
  assert.equal(ok.code, 0, ok.err);
  assert.match(readFileSync(join(ws, 'real.svg'), 'utf8'), /^<svg/);
  assert.deepEqual(readdirSync(ws).sort(), ['dangling.svg', 'out', 'plot.svg', 'real.svg']);
});

test('--plot and --dump-contexts check links where a ../ path comes back into the repository', async () => {
  // Run in `repo/src`, `--plot ../out/plot.svg` wrote through the repository's `out -> victim`.
  const repo = mkdtempSync(join(tmpdir(), 'cd-links-up-'));
  const victim = mkdtempSync(join(tmpdir(), 'cd-victim-'));
  mkdirSync(join(repo, 'src'));
  symlinkSync(victim, join(repo, 'out'));
  const log = join(fixtures, 'openai.jsonl');
  const cwd = join(repo, 'src');
  const plot = await runCli(['replay', log, '--strategy', 'raw', '--plot', '../out/plot.svg'], { cwd });
  assert.equal(plot.code, 1);
  assert.match(plot.err, /cannot write the plot to .*\/out is a link; name the real path/);
  const dump = await runCli(['replay', log, '--strategy', 'raw', '--dump-contexts', '../out/dump'], { cwd });
  assert.equal(dump.code, 2);
  assert.match(dump.err, /--dump-contexts \.\.\/out\/dump: .*\/out is a link/);
  assert.deepEqual(readdirSync(victim), []);
  // A real folder reached the same way is fine.
  mkdirSync(join(repo, 'real'));
  const ok = await runCli(['replay', log, '--strategy', 'raw', '--plot', '../real/plot.svg'], { cwd });
  assert.equal(ok.code, 0, ok.err);
  assert.match(readFileSync(join(repo, 'real', 'plot.svg'), 'utf8'), /^<svg/);
});

test('the recorded row says output was not recorded when no call logged it (Claude Code 2.1), never 0 output tokens', async () => {
  // Claude Code 2.1 writes every record of a response with `stop_reason: null`: none holds its final output.
  const explore = join(fixtures, 'claude-code-project', '8463c716-a2ea-4c14-9efa-87158ebd9f20', 'subagents');
  const file = join(explore, 'agent-a7be2f0.jsonl');
  const table = await runCli(['replay', file, '--strategy', 'raw']);
  assert.equal(table.code, 0, table.err);
  assert.match(table.out, /cache writes; output tokens not recorded\)/);
  assert.doesNotMatch(table.out, /\b0 output tokens/);
  const json = await runCli(['replay', file, '--strategy', 'raw', '--format', 'json']);
  const rec = (JSON.parse(json.out) as { recorded: { outputTokens: number | null; outputCalls: number } }).recorded;
  assert.deepEqual([rec.outputTokens, rec.outputCalls], [null, 0]);
  // One response logged complete (a stop reason): its output is said with how many calls recorded one.
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = lines.findIndex((l) => l.includes('"uuid":"da003159-'));
  const r = JSON.parse(lines[last]!) as { message: { stop_reason: string; usage: { output_tokens: number } } };
  r.message.stop_reason = 'tool_use';
  r.message.usage.output_tokens = 187;
  lines[last] = JSON.stringify(r);
  const dir = mkdtempSync(join(tmpdir(), 'cd-stop-'));
  writeFileSync(join(dir, 'agent-a7be2f0.jsonl'), lines.join('\n') + '\n');
  const ended = await runCli(['replay', join(dir, 'agent-a7be2f0.jsonl'), '--strategy', 'raw']);
  assert.match(ended.out, /; 187 output tokens recorded by 1 of these calls\)/);
});

test('the same log given twice (a copied file, a folder named twice) is replayed once; same-named files of two folders both count', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-replay-twice-'));
  // SWE-agent keeps no response ids: only what the log holds can tell a copy.
  copyFileSync(join(fixtures, 'swe-agent.history.json'), join(dir, 'a.history.json'));
  copyFileSync(join(fixtures, 'swe-agent.history.json'), join(dir, 'b.history.json'));
  const alone = JSON.parse(
    (await runCli(['replay', join(dir, 'a.history.json'), '--format', 'json', '--strategy', 'raw'])).out,
  ) as JsonReport;
  const folder = await runCli(['replay', dir, '--format', 'json', '--strategy', 'raw']);
  assert.equal(folder.code, 0, folder.err);
  const report = JSON.parse(folder.out) as JsonReport;
  assert.equal(report.trajectories, 1);
  assert.equal(report.calls, alone.calls);
  assert.equal(report.strategies.raw!.inputTokens, alone.strategies.raw!.inputTokens);
  assert.deepEqual(
    report.skipped.map((s) => s.error),
    [
      'b.history.json: the same messages, calls and recorded figures as a.history.json (the same log given twice): replayed once, there',
    ],
  );
  // The folder named twice: every id repeats; one copy of each log is still counted.
  const twice = JSON.parse(
    (await runCli(['replay', dir, dir, '--format', 'json', '--strategy', 'raw'])).out,
  ) as JsonReport;
  assert.equal(twice.trajectories, 1);
  assert.equal(twice.strategies.raw!.inputTokens, alone.strategies.raw!.inputTokens);

  // Two runs whose files have the same name in two folders are two runs.
  const x = join(dir, 'x');
  const y = join(dir, 'y');
  mkdirSync(x);
  mkdirSync(y);
  copyFileSync(join(fixtures, 'swe-agent.history.json'), join(x, 't.json'));
  copyFileSync(join(fixtures, 'openai-chat.json'), join(y, 't.json'));
  const two = JSON.parse((await runCli(['replay', x, y, '--format', 'json', '--strategy', 'raw'])).out) as JsonReport;
  assert.equal(two.trajectories, 2);
  assert.deepEqual(two.skipped, []);
});

test('a mini-swe-agent run continued in another file is counted once, by its response ids', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-replay-ids-'));
  const run = JSON.parse(readFileSync(join(fixtures, 'mini-swe-agent-2-toolcall.traj.json'), 'utf8')) as {
    messages: unknown[];
  };
  writeFileSync(join(dir, 'a.traj.json'), JSON.stringify(run));
  // The same run gone on for one more call, saved under another name: a's calls are all in b.
  const more = {
    role: 'assistant',
    content: 'Done.',
    extra: { response: { id: 'chatcmpl-4', usage: { prompt_tokens: 400, completion_tokens: 2 } } },
  };
  writeFileSync(
    join(dir, 'b.traj.json'),
    JSON.stringify({ ...run, messages: [...run.messages, { role: 'user', content: 'Go on' }, more] }),
  );
  const r = JSON.parse((await runCli(['replay', dir, '--format', 'json', '--strategy', 'raw'])).out) as JsonReport;
  assert.equal(r.trajectories, 1);
  assert.equal(r.calls, 4);
  assert.match(r.skipped[0]!.error, /^a\.traj\.json: its 3 model calls are all in b\.traj\.json too/);
});

test('an image whose size replay does not read makes every total a lower bound: said, marked ≥, ratios refused', async () => {
  // anthropic-request.json holds one image block; openai-chat.json none.
  const dir = mkdtempSync(join(tmpdir(), 'cd-media-'));
  for (const f of ['anthropic-request.json', 'openai-chat.json']) copyFileSync(join(fixtures, f), join(dir, f));
  const table = await runCli(['replay', dir, '--strategy', 'masking', '--per-trajectory']);
  assert.equal(table.code, 0);
  assert.match(table.out, /^Not counted: 1 image or other media part whose tokens are unknown/m);
  assert.match(table.out, /^raw\s+2\s+4\s+≥ \d+\s+-\s+≥ \d+\s+-\s/m, 'totals marked as lower bounds, ratios refused');
  assert.match(table.out, /^anthropic-request\.json\s+raw\s+2\s+≥ \d+\s+-/m);
  assert.match(table.out, /^openai-chat\.json\s+raw\s+2\s+\d+\s+1\.000/m, 'a log without media stays exact');
  const json = await runCli(['replay', dir, '--strategy', 'masking', '--format', 'json']);
  const masking = (JSON.parse(json.out) as JsonReport).strategies.masking!;
  assert.equal(masking.lowerBound, true);
  assert.equal(masking.uncountedMedia, 1);
  assert.equal(masking.ratioToRaw, null);
  assert.equal(masking.costRatioToRaw, null);
  const csv = (await runCli(['replay', dir, '--strategy', 'masking', '--format', 'csv'])).out.trim().split('\n');
  const col = (name: string) => csv[0]!.split(',').indexOf(name);
  const raw = csv.find((l) => l.startsWith('total,raw,'))!.split(',');
  assert.equal(raw[col('lowerBound')], 'true');
  assert.equal(raw[col('uncountedMedia')], '1');
  assert.equal(raw[col('ratioToRaw')], '');
  const plot = join(dir, 'ctx.svg');
  assert.equal((await runCli(['replay', dir, '--strategy', 'masking', '--plot', plot])).code, 0);
  assert.match(readFileSync(plot, 'utf8'), /o200k tokenizer, lower bounds: 1 media part not counted\)/);
});
