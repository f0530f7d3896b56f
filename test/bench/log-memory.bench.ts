// Replay's memory on large logs (issue 15): peak RSS of `context-desk replay` on a ~200 MB JSON lines
// log and a ~200 MB SWE-agent `.traj` (a JSON document whose steps repeat the prompt, the worst shape),
// each in a fresh process, against the same process that only loads the tokenizer, measured in the
// same run. Goal: peak RSS under the tokenizer baseline + 2x the file.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const MB = 1024 * 1024;
const TARGET = Number(process.env.REPLAY_BENCH_MB ?? 200) * MB;
const root = path.resolve(__dirname, '../..');

/** Ten distinct observation texts of ~100 KB: real-sized messages, tokenized once each (the cache). */
const observations = Array.from({ length: 10 }, (_, k) =>
  Array.from({ length: 1500 }, (_, i) => `obs ${k} line ${i}: compiled src/module_${i % 97}.c in ${i % 13} ms`).join(
    '\n',
  ),
);

async function writeJsonl(file: string): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  let turn = 0;
  const line = (v: unknown) => JSON.stringify(v) + '\n';
  let chunk =
    line({ role: 'system', content: 'You are a coding agent.' }) + line({ role: 'user', content: 'Fix the build.' });
  while (written + chunk.length < TARGET) {
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
    turn++;
    chunk =
      line({
        role: 'assistant',
        content: `step ${turn}`,
        tool_calls: [
          { id: `c${turn}`, type: 'function', function: { name: 'bash', arguments: `{"cmd":"make ${turn}"}` } },
        ],
      }) + line({ role: 'tool', tool_call_id: `c${turn}`, content: observations[turn % observations.length] });
  }
  out.end(line({ role: 'assistant', content: 'done' }));
  await once(out, 'finish');
}

/** SWE-agent `.traj`: `history` plus `trajectory` steps whose `query` repeats the history so far. */
async function writeTraj(file: string): Promise<void> {
  const history: unknown[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the build.' },
  ];
  const steps: string[] = [];
  let size = 0;
  for (let turn = 1; size < TARGET * 0.9; turn++) {
    history.push({ role: 'assistant', content: `step ${turn}`, action: `make ${turn}` });
    const query = JSON.stringify(history);
    const step = JSON.stringify({
      action: `make ${turn}`,
      observation: observations[turn % 10],
      response: `step ${turn}`,
      thought: '',
      query,
    });
    steps.push(step.replace(JSON.stringify(query), query)); // query as a list, not a string
    history.push({ role: 'user', content: observations[turn % 10] });
    size += step.length + JSON.stringify(observations[turn % 10]).length;
  }
  const out = createWriteStream(file);
  out.write(`{"environment": "bench", "history": ${JSON.stringify(history)}, "trajectory": [`);
  for (const [i, s] of steps.entries()) if (!out.write((i ? ',' : '') + s)) await once(out, 'drain');
  out.end('], "info": {}}');
  await once(out, 'finish');
}

/** Peak RSS (MB) of a fresh node process running `script` (TypeScript through tsx). */
function peakRss(script: string, args: string[]): { mb: number; ms: number; stderr: string } {
  const start = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  const match = /PEAK_RSS_KB (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !match) throw new Error(`${script} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { mb: Number(match[1]) / 1024, ms: Date.now() - start, stderr: r.stderr };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-replay-mem-'));
  try {
    const baseline = path.join(dir, 'baseline.ts');
    const runner = path.join(dir, 'replay.ts');
    const report = `process.on('exit', () => process.stderr.write('PEAK_RSS_KB ' + process.resourceUsage().maxRSS + '\\n'));`;
    await writeFile(
      baseline,
      `${report}\nimport { createTokenizer } from ${JSON.stringify(path.join(root, 'src/core/tokens'))};\n` +
        `import '${path.join(root, 'src/cli/main')}';\nconst t = createTokenizer('o200k'); t.count('warm up'); t.dispose();\n`,
    );
    await writeFile(
      runner,
      `${report}\nimport { main } from ${JSON.stringify(path.join(root, 'src/cli/main'))};\n` +
        `main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: new AbortController().signal }).then((c) => { process.exitCode = c; });\n`,
    );
    const files = [path.join(dir, 'big.jsonl'), path.join(dir, 'big.traj')];
    await writeJsonl(files[0]!);
    await writeTraj(files[1]!);
    const base = peakRss(baseline, []);
    console.log(`Tokenizer baseline (fresh process, o200k loaded): peak RSS ${base.mb.toFixed(0)} MB`);
    let misses = 0;
    for (const file of files) {
      const size = (await stat(file)).size / MB;
      const run = peakRss(runner, ['replay', file, '--strategy', 'raw', '--format', 'json']);
      const goal = base.mb + 2 * size;
      const ok = run.mb < goal;
      if (!ok) misses++;
      console.log(
        `${path.basename(file).padEnd(10)} ${size.toFixed(0)} MB: peak RSS ${run.mb.toFixed(0)} MB in ${(run.ms / 1000).toFixed(1)} s; ` +
          `goal < ${goal.toFixed(0)} MB (baseline + 2x file): ${ok ? 'ok' : 'MISSED'}; ` +
          `${((run.mb - base.mb) / size).toFixed(2)}x the file above the baseline`,
      );
    }
    console.log(
      misses === 0
        ? '\nReplay stays under the memory goal on both shapes.'
        : `\n${misses} shapes miss the memory goal.`,
    );
    if (misses > 0) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
