// `context-desk replay`: what each context strategy would have sent and cost on recorded agent logs.
import { UsageError, type Command, type CliIo } from '../command';
import { writeOutputFile } from '../output-path';
import { createTokenizer } from '../../core/tokens';
import { findLogs, printable, type Skipped } from '../../core/trajectories';
import { aggregate } from '../../core/replay/replay';
import { parseReplayArgs } from '../replay/args';
import { ContextDump } from '../replay/dump';
import { Progress } from '../replay/progress';
import { buildReport, groupSkipped } from '../replay/report';
import { formatTable } from '../replay/report-table';
import { formatCsv } from '../replay/report-csv';
import { renderPlot } from '../replay/plot';
import { Interrupted, replayFiles, type TrajectoryWarning } from '../replay/run';

const usage = `Usage: context-desk replay PATH... [options]

Replays recorded agent logs (files or folders, searched recursively) with each context strategy and
prints what every strategy would have sent and cost, next to what the provider recorded where the log
kept it. Formats are detected by content: mini-swe-agent, SWE-agent, Claude Code, Codex CLI, Gemini CLI,
Qwen Code, OpenHands (V0 and SDK V1), Cline and Roo Code task histories, Aider chat history, OpenAI chat /
Responses API, Anthropic Messages requests, and Context Desk's own history (see the README for where each
tool writes its logs).

Options:
  --strategy all|NAME,...   strategies to replay (default all; raw is always included as the baseline):
                            raw, masking, summary, hybrid, retry-filter, sliding-window, cache-aware
  --window M                masking window in turns (default 10)
  --polling K               advance the mask boundary only every K turns (default 1)
  --tokenizer NAME          o200k (default), cl100k, or chars4 (an estimate, labelled as such)
  --cached-price P          cached input price relative to uncached, 0..1 (default 0.1)
  --cache-write-price W     cache write price relative to uncached input, >= 1 (default 1.0; 1.25 = Anthropic);
                            summarizer prompts are billed at it whole (they share no cached prefix)
  --min-cached-prefix N     a shared prefix under N tokens is not cached (default 1024, as OpenAI,
                            Anthropic's Sonnet and Gemini's Flash; 4096 for Claude Opus 4.5 / Haiku 4.5;
                            0 counts any shared prefix as cached)
  --cache-model auto|prefix|anthropic
                            the prompt cache calls are billed with: prefix serves any prefix shared with
                            the previous call (OpenAI, Gemini); anthropic reads only where our Anthropic
                            provider's breakpoints wrote, 20 blocks back at most (as Context Desk bills
                            Claude); auto (default) goes by the model a log names (anthropic for Claude,
                            prefix for GPT, Gemini, Qwen, ...), and where none is named by its format:
                            anthropic for Claude Code and Anthropic request logs, prefix for the rest
  --context-window N        model context window in tokens (default 200000)
  --summary-tokens N        size of the summary stand-in in tokens (default 400)
  --include-output          add output tokens to the cost (excluded by default)
  --output-price O          output price relative to uncached input, with --include-output (default 4)
  --format table|json|csv   output format (default table)
  --per-trajectory          also report every trajectory separately
  --plot FILE.svg           draw context tokens per model call for each strategy
  --dump-contexts DIR       write the exact messages of every call: DIR/<trajectory>/<strategy>.jsonl
  -h, --help                show this help

Exit codes: 0 done, 1 no trajectory could be loaded or the plot could not be written (results still printed), 2 usage error, 130 interrupted (Ctrl-C).`;

const MAX_LINES = 20;

/** Skipped files on stderr: one line per file when few, else counted per reason with examples. */
function reportSkipped(skipped: readonly Skipped[], io: CliIo): void {
  const p = (s: string) => printable(s, 200);
  if (skipped.length <= 5) {
    for (const s of skipped) io.stderr.write(`context-desk replay: skipped ${p(s.file)}: ${p(s.error)}\n`);
    return;
  }
  for (const g of groupSkipped(skipped)) {
    const files = skipped.filter((s) => s.group === g.group);
    io.stderr.write(`context-desk replay: skipped ${g.files} file${g.files === 1 ? '' : 's'}: ${p(g.group)}\n`);
    for (const s of files.slice(0, 3)) io.stderr.write(`    ${p(s.file)}: ${p(s.error)}\n`);
    if (files.length > 3) io.stderr.write(`    ... and ${files.length - 3} more\n`);
  }
}

function reportWarnings(warnings: readonly TrajectoryWarning[], io: CliIo): void {
  for (const w of warnings.slice(0, MAX_LINES))
    io.stderr.write(`context-desk replay: warning: ${printable(w.trajectory, 200)}: ${printable(w.warning, 300)}\n`);
  if (warnings.length > MAX_LINES)
    io.stderr.write(
      `context-desk replay: ... and ${warnings.length - MAX_LINES} more warnings (all of them in --format json)\n`,
    );
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseReplayArgs(argv);
  const progress = new Progress({ stream: io.stderr });
  const found = await findLogs(args.paths);
  const tokenizer = createTokenizer(args.tokenizer);
  const dump = args.dumpContexts !== undefined ? await ContextDump.open(args.dumpContexts) : undefined;
  try {
    const batch = await replayFiles(found.files, args.strategies, args.options, tokenizer, {
      signal: io.signal,
      onFile: (done, total) => progress.update(done, total, 'replaying'),
      ...(dump ? { replayHooks: (t, s) => dump.hooks(t, s) } : {}),
    });
    progress.finish();
    const skipped = [...found.skipped, ...batch.skipped];
    reportSkipped(skipped, io);
    reportWarnings(batch.warnings, io);
    const rawRun = batch.runs.find((r) => r.strategy === 'raw');
    if (!rawRun || rawRun.replays.length === 0) {
      io.stderr.write(
        `context-desk replay: no trajectory could be loaded from ${args.paths.map((p) => printable(p, 200)).join(', ')}\n`,
      );
      return 1;
    }
    const {
      window,
      polling,
      cachedPrice,
      cacheWritePrice,
      contextWindow,
      includeOutput,
      outputPrice,
      minCachedTokens,
      cacheModel,
    } = args.options;
    const report = buildReport(
      batch.runs,
      {
        tokenizer: args.tokenizer,
        exact: tokenizer.exact,
        skipped,
        options: {
          window,
          polling,
          cachedPrice,
          cacheWritePrice,
          contextWindow,
          minCachedTokens,
          cacheModel: cacheModel ?? 'auto',
          includeOutput,
          ...(includeOutput ? { outputPrice: outputPrice ?? 1 } : {}),
        },
        perTrajectory: args.perTrajectory,
        warnings: batch.warnings,
        ignoredRecords: batch.ignoredRecords,
      },
      (r) => aggregate([r]),
    );
    let code = 0;
    if (dump) io.stderr.write(`context-desk replay: contexts written under ${printable(args.dumpContexts!, 200)}\n`);
    if (args.plot !== undefined) {
      try {
        await writeOutputFile('--plot', args.plot, renderPlot(batch.runs, args.tokenizer, tokenizer.exact));
        io.stderr.write(`context-desk replay: plot written to ${printable(args.plot, 200)}\n`);
      } catch (e) {
        // The numbers are still printed: a bad plot path must not lose a long replay.
        const why =
          e instanceof UsageError
            ? e.message
            : ((e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e)));
        io.stderr.write(`context-desk replay: cannot write the plot to ${printable(args.plot, 200)}: ${why}\n`);
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
