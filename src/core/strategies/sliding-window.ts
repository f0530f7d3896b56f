// `sliding-window` (Shannon): the first 3 messages + `Previous context summary:` + the last 20,
// compressing when usage reaches 75 % of the budget (the context window), down to 37.5 %.
import type { Message } from '../messages';
import { buildSummaryPrompt, slidingSummaryMessage } from './checkpoint';
import type { ContextResult, ContextStrategy, StrategyDeps, StrategyOptions, SummaryRecord } from './types';

export const PRIMERS = 3;
export const RECENTS = 20;
export const COMPRESS_AT = 0.75;
export const COMPRESS_TO = 0.375;

function assistantsBefore(history: readonly Message[], end: number): number {
  let n = 0;
  for (let i = 0; i < end && i < history.length; i++) if (history[i]!.role === 'assistant') n++;
  return n;
}

export function createSlidingWindowStrategy(
  deps: StrategyDeps,
  options: Pick<StrategyOptions, 'contextWindow' | 'summaryTokens'>,
): ContextStrategy {
  let foldedUpTo = PRIMERS; // history[PRIMERS, foldedUpTo) lives in the summary
  let summary: string | undefined;
  let summaryMsg: Message | undefined;
  const count = (ms: readonly Message[]): number => ms.reduce((n, m) => n + deps.tokenizer.countMessage(m), 0);

  const assemble = (history: readonly Message[]): Message[] => {
    const primers = history.slice(0, PRIMERS);
    if (!summaryMsg) return history.slice();
    return [...primers, summaryMsg, ...history.slice(foldedUpTo)];
  };

  return {
    name: 'sliding-window',
    async build(history: readonly Message[]): Promise<ContextResult> {
      let messages = assemble(history);
      const summaries: SummaryRecord[] = [];
      if (count(messages) >= COMPRESS_AT * options.contextWindow && history.length > PRIMERS + 1) {
        const target = COMPRESS_TO * options.contextWindow;
        // The summary message: its text plus framing, with slack for tokens merging at the seam.
        const summarySize = options.summaryTokens + deps.tokenizer.countMessage(slidingSummaryMessage('')) + 2;
        const fixed = count(history.slice(0, PRIMERS)) + summarySize;
        let start = Math.max(PRIMERS, foldedUpTo, history.length - RECENTS);
        let recent = count(history.slice(start));
        // Fewer recents when the last 20 alone are too big; a tool result never opens the window
        // (its call would be gone, which providers reject).
        while (start < history.length - 1 && (fixed + recent > target || history[start]!.role === 'tool')) {
          recent -= deps.tokenizer.countMessage(history[start]!);
          start++;
        }
        // Fold only when the summary is smaller than what it replaces (never send more than raw).
        if (start > foldedUpTo && count(history.slice(PRIMERS, start)) > summarySize) {
          const folded = history.slice(foldedUpTo, start);
          const prompt = buildSummaryPrompt(folded, summary, options.summaryTokens);
          summary = await deps.summarizer.summarize(folded, summary);
          summaryMsg = slidingSummaryMessage(summary);
          summaries.push({
            fromTurn: assistantsBefore(history, foldedUpTo),
            toTurn: assistantsBefore(history, start),
            inputTokens: count(prompt),
            outputTokens: deps.tokenizer.count(summary),
            estimated: deps.summarizer.estimated,
            text: summary,
          });
          foldedUpTo = start;
          messages = assemble(history);
        }
      }
      return {
        messages,
        masked: [],
        summaries,
        summarizedTurns: summaryMsg ? assistantsBefore(history, foldedUpTo) - assistantsBefore(history, PRIMERS) : 0,
      };
    },
  };
}
