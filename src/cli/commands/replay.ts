// `context-desk replay`: what each context strategy would have sent and cost on recorded trajectories.
import { writeFile } from 'node:fs/promises';
import type { Command, CliIo } from '../command';
import { createTokenizer } from '../../core/tokens';
import { loadTrajectories } from '../../core/trajectories';
import { aggregate } from '../../core/replay/replay';
import { parseReplayArgs } from '../replay/args';
import { Progress } from '../replay/progress';
import { buildReport, formatCsv, formatTable } from '../replay/report';
import { renderPlot } from '../replay/plot';
import { Interrupted, runStrategies } from '../replay/run';

const usage = `Usage: context-desk replay PATH... [options]

Replays recorded agent trajectories (files or folders, searched recursively) with each context strategy
and prints what every strategy would have sent and cost. Formats are detected by content:
mini-swe-agent .traj.json, SWE-agent .traj / history, OpenAI chat JSON / JSONL, Claude Code sessions.

Options:
  --strategy all|NAME,...   strategies to replay (default all; raw is always included as the baseline):
                            raw, masking, summary, hybrid, retry-filter, sliding-window, cache-aware
  --window M                masking window in turns (default 10)
  --polling K               advance the mask boundary only every K turns (default 1)
  --tokenizer NAME          o200k (default), cl100k, or chars4 (an estimate, labelled as such)
  --cached-price P          cached input price relative to uncached, 0..1 (default 0.1)
  --cache-write-price W     cache write price relative to uncached input, >= 1 (default 1.0; 1.25 = Anthropic)
  --context-window N        model context window in tokens (default 200000)
  --summary-tokens N        size of the summary stand-in in tokens (default 400)
  --include-output          add output tokens to the cost (excluded by default)
  --format table|json|csv   output format (default table)
  --per-trajectory          also report every trajectory separately
  --plot FILE.svg           draw context tokens per model call for each strategy
  -h, --help                show this help

Exit codes: 0 done, 1 no trajectory could be loaded or the plot could not be written (results still printed), 2 usage error, 130 interrupted (Ctrl-C).`;

async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseReplayArgs(argv);
  const progress = new Progress({ stream: io.stderr });
  const loaded = await loadTrajectories(args.paths, (file, i, total) => progress.update(i, total, 'loading'));
  for (const s of loaded.skipped) io.stderr.write(`context-desk replay: skipped ${s.file}: ${s.error}\n`);
  if (loaded.trajectories.length === 0) {
    progress.finish();
    io.stderr.write(`context-desk replay: no trajectory could be loaded from ${args.paths.join(', ')}\n`);
    return 1;
  }
  const tokenizer = createTokenizer(args.tokenizer);
  try {
    const runs = await runStrategies(loaded.trajectories, args.strategies, args.options, tokenizer, {
      signal: io.signal,
      onStep: (done, total) => progress.update(done, total, 'replaying'),
    });
    progress.finish();
    const { window, polling, cachedPrice, cacheWritePrice, contextWindow, includeOutput } = args.options;
    const report = buildReport(
      runs,
      {
        tokenizer: args.tokenizer,
        exact: tokenizer.exact,
        skipped: loaded.skipped,
        options: { window, polling, cachedPrice, cacheWritePrice, contextWindow, includeOutput },
        perTrajectory: args.perTrajectory,
      },
      (r) => aggregate([r]),
    );
    let code = 0;
    if (args.plot !== undefined) {
      try {
        await writeFile(args.plot, renderPlot(runs, args.tokenizer, tokenizer.exact));
        io.stderr.write(`context-desk replay: plot written to ${args.plot}\n`);
      } catch (e) {
        // The numbers are still printed: a bad plot path must not lose a long replay.
        const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
        io.stderr.write(`context-desk replay: cannot write the plot to ${args.plot}: ${why}\n`);
        code = 1;
      }
    }
    if (args.format === 'json') io.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else if (args.format === 'csv') io.stdout.write(formatCsv(report));
    else io.stdout.write(formatTable(report));
    return code;
  } catch (e) {
    progress.finish();
    if (e instanceof Interrupted) {
      io.stderr.write('context-desk replay: interrupted; partial results discarded\n');
      return 130;
    }
    throw e;
  } finally {
    tokenizer.dispose();
  }
}

const command: Command = {
  summary: 'replay trajectories with each context strategy and compare tokens and cost',
  usage,
  run,
};
export default command;
