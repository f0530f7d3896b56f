// The run description a replay report is built with in tests: o200k, nothing skipped, the CLI's defaults.
import type { ReplayReport } from '../../../src/cli/replay/report';

export interface ReportMeta {
  tokenizer: string;
  exact: boolean;
  skipped: [];
  perTrajectory: boolean;
  options: ReplayReport['options'];
}

export function reportMeta(
  o: { perTrajectory?: boolean; tokenizer?: string; contextWindow?: number } = {},
): ReportMeta {
  return {
    tokenizer: o.tokenizer ?? 'o200k',
    exact: true,
    skipped: [],
    perTrajectory: o.perTrajectory ?? false,
    options: {
      window: 10,
      polling: 1,
      cachedPrice: 0.1,
      cacheWritePrice: 1,
      contextWindow: o.contextWindow ?? 200_000,
      includeOutput: false,
      minCachedTokens: 0,
      cacheModel: 'auto',
    },
  };
}
