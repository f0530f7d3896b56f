// Replays a folder of real trajectories (default ../shared/trajectories, or argv[2]) with every strategy
// and compares each strategy's replay time with the floor for exact counting: tokenizing every distinct
// message text once, measured in the same run with a fresh tokenizer. Tokenizer load time counts in
// neither (each tokenizer is created and warmed before its clock starts). Goal: < 2x the floor for every
// strategy that calls no summarizer.
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import type { Trajectory } from '../../src/core/messages';
import { createTokenizer, type TokenizerName } from '../../src/core/tokens';
import { loadTrajectories } from '../../src/core/trajectories';
import { DEFAULT_REPLAY_OPTIONS, STRATEGY_NAMES, aggregate, replayTrajectory } from '../../src/core/replay/replay';
import type { StrategyRun } from '../../src/cli/replay/run';
import { buildReport } from '../../src/cli/replay/report';
import { formatTable } from '../../src/cli/replay/report-table';

const GOAL = 2;
const folder = resolve(process.argv[2] ?? resolve(__dirname, '../../../shared/trajectories'));
const tokenizerName = (process.env.TOKENIZER ?? 'o200k') as TokenizerName;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function freshTokenizer() {
  const t = createTokenizer(tokenizerName);
  t.count('warm up the encoder'); // loads WASM and ranks: not part of any measurement
  return t;
}

/** Every distinct text a tokenizer has to see: contents, names, tool-call names and arguments. */
function distinctTexts(trajectories: readonly Trajectory[]): string[] {
  const texts = new Set<string>();
  for (const t of trajectories) {
    for (const m of t.messages) {
      texts.add(m.content);
      if (m.name !== undefined) texts.add(m.name);
      for (const c of m.toolCalls ?? []) texts.add(c.name).add(c.arguments);
    }
  }
  texts.delete('');
  return [...texts];
}

function measureFloor(texts: readonly string[]): { ms: number; tokens: number } {
  const tok = freshTokenizer();
  gc();
  const start = performance.now();
  let tokens = 0;
  for (const s of texts) tokens += tok.count(s);
  const ms = performance.now() - start;
  tok.dispose();
  return { ms, tokens };
}

async function main(): Promise<void> {
  const loadStart = performance.now();
  const { trajectories, skipped } = await loadTrajectories([folder]);
  const loadMs = performance.now() - loadStart;
  if (trajectories.length === 0) throw new Error(`no trajectories in ${folder}`);
  for (const s of skipped) console.log(`skipped ${s.file}: ${s.error}`);
  const texts = distinctTexts(trajectories);
  const chars = texts.reduce((n, s) => n + s.length, 0);

  // The floor twice, keeping the faster: the first pass also warms the JIT for the encoder path.
  const floors = [measureFloor(texts), measureFloor(texts)];
  const floor = Math.min(...floors.map((f) => f.ms));

  const runs: StrategyRun[] = [];
  const times: { strategy: string; ms: number; llm: boolean }[] = [];
  for (const strategy of STRATEGY_NAMES) {
    const tok = freshTokenizer();
    gc();
    const start = performance.now();
    const replays = [];
    for (const t of trajectories) replays.push(await replayTrajectory(t, strategy, DEFAULT_REPLAY_OPTIONS, tok));
    const ms = performance.now() - start;
    tok.dispose();
    const totals = aggregate(replays);
    runs.push({ strategy, totals, replays });
    times.push({ strategy, ms, llm: totals.summaryCalls > 0 });
  }

  const { window, polling, cachedPrice, cacheWritePrice, contextWindow, includeOutput, minCachedTokens } =
    DEFAULT_REPLAY_OPTIONS;
  const report = buildReport(
    runs,
    {
      tokenizer: tokenizerName,
      exact: tokenizerName !== 'chars4',
      skipped,
      options: {
        window,
        polling,
        cachedPrice,
        cacheWritePrice,
        contextWindow,
        minCachedTokens,
        includeOutput,
        cacheModel: 'auto',
      },
      perTrajectory: false,
    },
    (r) => aggregate([r]),
  );
  console.log(`Folder: ${folder}`);
  console.log(`Loaded ${trajectories.length} trajectories in ${loadMs.toFixed(0)} ms (${skipped.length} skipped)\n`);
  process.stdout.write(formatTable(report));
  console.log(`\nTiming (${tokenizerName}, fresh tokenizer per measurement, load time excluded):`);
  console.log(
    `floor: tokenize ${texts.length.toLocaleString('en-US')} distinct texts (${(chars / 1e6).toFixed(1)} MB) once: ` +
      `${floor.toFixed(0)} ms (runs: ${floors.map((f) => f.ms.toFixed(0)).join(', ')} ms; ${(chars / 1e6 / (floor / 1000)).toFixed(2)} MB/s)`,
  );
  const rows = times.map((t) => {
    const ratio = t.ms / floor;
    const verdict = t.llm
      ? 'summarizer stand-in (goal n/a)'
      : ratio < GOAL
        ? `ok (< ${GOAL}x)`
        : `MISSES the ${GOAL}x goal`;
    return `${t.strategy.padEnd(15)} ${t.ms.toFixed(0).padStart(7)} ms  ${ratio.toFixed(2).padStart(5)}x floor  ${verdict}`;
  });
  console.log(['strategy        replay time   vs floor', ...rows].join('\n'));
  const misses = times.filter((t) => !t.llm && t.ms / floor >= GOAL);
  console.log(
    misses.length === 0
      ? `\nAll non-LLM strategies under ${GOAL}x the floor.`
      : `\n${misses.length} non-LLM strategies miss the goal.`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
