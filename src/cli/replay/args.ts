// `context-desk replay` options: parsed with node's parseArgs, every bad value a UsageError that says why.
import { DEFAULT_OUTPUT_PRICE } from '../../core/cost/pricing';
import { parseArgs } from 'node:util';
import { UsageError } from '../command';
import { isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from '../../core/tokens';
import {
  DEFAULT_REPLAY_OPTIONS,
  STRATEGY_NAMES,
  isStrategyName,
  type ReplayOptions,
  type StrategyName,
} from '../../core/replay/replay';
import { CACHE_MODEL_CHOICES, isCacheModelChoice } from '../../core/replay/cache-model';

export type OutputFormat = 'table' | 'json' | 'csv';

export interface ReplayArgs {
  paths: string[];
  /** In the order given; raw is always replayed too, as the baseline for ratios. */
  strategies: StrategyName[];
  tokenizer: TokenizerName;
  format: OutputFormat;
  perTrajectory: boolean;
  plot?: string;
  /** Folder for the exact messages of every call, per trajectory and strategy. */
  dumpContexts?: string;
  options: ReplayOptions;
}

function number(
  name: string,
  text: string | undefined,
  fallback: number,
  check: (n: number) => boolean,
  rule: string,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${rule} (got '${text}')`);
  return n;
}

const int = (n: number) => Number.isInteger(n) && n >= 1;

export function parseReplayArgs(argv: string[]): ReplayArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        strategy: { type: 'string', default: 'all' },
        window: { type: 'string' },
        polling: { type: 'string' },
        tokenizer: { type: 'string', default: 'o200k' },
        'cached-price': { type: 'string' },
        'cache-write-price': { type: 'string' },
        'context-window': { type: 'string' },
        'summary-tokens': { type: 'string' },
        'include-output': { type: 'boolean', default: false },
        'output-price': { type: 'string' },
        'min-cached-prefix': { type: 'string' },
        'cache-model': { type: 'string', default: 'auto' },
        format: { type: 'string', default: 'table' },
        'per-trajectory': { type: 'boolean', default: false },
        plot: { type: 'string' },
        'dump-contexts': { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  if (parsed.positionals.length === 0) throw new UsageError('give at least one trajectory file or folder');

  const wanted = v.strategy === 'all' ? [...STRATEGY_NAMES] : v.strategy.split(',').map((s) => s.trim());
  const unknown = wanted.filter((s) => !isStrategyName(s));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new UsageError(`unknown strategy '${unknown.join(',')}' (choose all or from ${STRATEGY_NAMES.join(', ')})`);
  }
  const strategies = [...new Set(['raw', ...wanted])] as StrategyName[];

  if (!isTokenizerName(v.tokenizer))
    throw new UsageError(`--tokenizer must be one of ${TOKENIZER_NAMES.join(', ')} (got '${v.tokenizer}')`);
  if (v.format !== 'table' && v.format !== 'json' && v.format !== 'csv') {
    throw new UsageError(`--format must be table, json or csv (got '${v.format}')`);
  }
  if (!isCacheModelChoice(v['cache-model']))
    throw new UsageError(`--cache-model must be one of ${CACHE_MODEL_CHOICES.join(', ')} (got '${v['cache-model']}')`);
  if (v['dump-contexts'] !== undefined && v['dump-contexts'].trim() === '')
    throw new UsageError('--dump-contexts needs a folder to write into');
  if (v.plot !== undefined && !v.plot.toLowerCase().endsWith('.svg'))
    throw new UsageError(`--plot writes an SVG file: give a name ending in .svg (got '${v.plot}')`);

  const d = DEFAULT_REPLAY_OPTIONS;
  const options: ReplayOptions = {
    ...d,
    window: number('window', v.window, d.window, int, 'an integer >= 1'),
    polling: number('polling', v.polling, d.polling, int, 'an integer >= 1'),
    cachedPrice: number(
      'cached-price',
      v['cached-price'],
      d.cachedPrice,
      (n) => n >= 0 && n <= 1,
      'a number from 0 to 1',
    ),
    cacheWritePrice: number(
      'cache-write-price',
      v['cache-write-price'],
      d.cacheWritePrice,
      (n) => n >= 1,
      'a number >= 1',
    ),
    contextWindow: number('context-window', v['context-window'], d.contextWindow, int, 'an integer >= 1'),
    summaryTokens: number('summary-tokens', v['summary-tokens'], d.summaryTokens, int, 'an integer >= 1'),
    includeOutput: v['include-output'],
    cacheModel: v['cache-model'],
    minCachedTokens: number(
      'min-cached-prefix',
      v['min-cached-prefix'],
      d.minCachedTokens,
      (n) => Number.isInteger(n) && n >= 0,
      'an integer >= 0',
    ),
    // Output is priced as the extension prices it when the model's price is unknown (4x input).
    outputPrice: number('output-price', v['output-price'], DEFAULT_OUTPUT_PRICE, (n) => n >= 0, 'a number >= 0'),
  };
  if (v['output-price'] !== undefined && !v['include-output'])
    throw new UsageError('--output-price prices output tokens, which only --include-output adds to the cost');
  return {
    paths: parsed.positionals,
    strategies,
    tokenizer: v.tokenizer,
    format: v.format,
    perTrajectory: v['per-trajectory'],
    ...(v.plot !== undefined ? { plot: v.plot } : {}),
    ...(v['dump-contexts'] !== undefined ? { dumpContexts: v['dump-contexts'] } : {}),
    options,
  };
}
