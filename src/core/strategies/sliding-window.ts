// `sliding-window` (Shannon): the first 3 messages + `Previous context summary:` + the last 20,
// compressing when usage reaches 75 % of the budget (the context window), down to 37.5 %.
// A person's instructions among the folded messages stay verbatim beside the summary. When even the most it
// can fold leaves the context over the window (the primers, the person's messages, the latest turn), it says so.
import { splitTurns, type Message, type Origin } from '../messages';
import { maskableTurns, maskTurns } from './mask-turns';
import { inferOrigins, mustKeepVerbatim } from '../provenance';
import { messageCounter, sumTokens } from '../cost/message-tokens';
import { buildSummaryPrompt, personMessagesBefore, slidingSummaryMessage } from './checkpoint';
import { fitInstructions, internedMessages } from './instructions';
import {
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type MaskRecord,
  type StrategyDeps,
  type StrategyOptions,
  type SummaryRecord,
} from './types';

export const PRIMERS = 3;
export const RECENTS = 20;
export const COMPRESS_AT = 0.75;
export const COMPRESS_TO = 0.375;

function assistantsBefore(history: readonly Message[], end: number): number {
  let n = 0;
  for (let i = 0; i < end && i < history.length; i++) if (history[i]!.role === 'assistant') n++;
  return n;
}

/** The first 3 messages, and the results of a tool call among them (a call without its result is rejected). */
function primersEnd(history: readonly Message[]): number {
  let end = Math.min(PRIMERS, history.length);
  while (end < history.length && history[end]!.role === 'tool') end++;
  return end;
}

export function createSlidingWindowStrategy(
  deps: StrategyDeps,
  options: Pick<StrategyOptions, 'contextWindow' | 'summaryTokens'>,
): ContextStrategy {
  let foldedUpTo = 0; // history[primers, foldedUpTo) lives in the summary (0: nothing folded yet)
  let summary: string | undefined;
  const summaryMessage = internedMessages((content) => ({ role: 'user', origin: 'agent', content }));
  const counter = messageCounter(deps.tokenizer);
  const count = (ms: readonly Message[]): number => sumTokens(ms, counter);

  // A person's instructions among the folded messages stay verbatim after the primers.
  const assemble = (
    history: readonly Message[],
    origins: readonly (Origin | undefined)[],
    window: number,
  ): Message[] => {
    if (summary === undefined) return history.slice();
    const primers = history.slice(0, primersEnd(history));
    const tail = history.slice(foldedUpTo);
    const candidates: number[] = [];
    for (let i = primers.length; i < foldedUpTo; i++) if (mustKeepVerbatim(history[i]!, origins[i])) candidates.push(i);
    const bare = slidingSummaryMessage(summary);
    const spare = window - count(primers) - counter(bare) - count(tail);
    const { kept, summarised } = fitInstructions(candidates, history, origins, spare, counter);
    const summaryMsg = summaryMessage(slidingSummaryMessage(summary, summarised).content);
    return [...primers, ...kept.map((i) => history[i]!), summaryMsg, ...tail];
  };

  /** `messages` (which start with the primers) with the outputs among the primers masked, when they may be. */
  const maskPrimerOutputs = (
    history: readonly Message[],
    messages: Message[],
    primerEnd: number,
  ): { messages: Message[]; masked: MaskRecord[] } => {
    const split = splitTurns(history);
    if ((split.turns[0]?.actionIndex ?? primerEnd) >= primerEnd || maskableTurns(split) < 1)
      return { messages, masked: [] };
    const view = maskTurns(history, split, 0, 1, counter, true); // the window forces it
    const masked = view.masked.filter((r) => r.index < primerEnd);
    return { messages: [...view.messages.slice(0, primerEnd), ...messages.slice(primerEnd)], masked };
  };

  return {
    name: 'sliding-window',
    snapshot: () => (summary === undefined ? undefined : { strategy: 'sliding-window', foldedUpTo, summary }),
    restore(state) {
      if (state.strategy !== 'sliding-window') return;
      ({ foldedUpTo, summary } = state);
    },
    async build(history: readonly Message[], buildOptions?: BuildOptions): Promise<ContextResult> {
      const window = usableWindow(options.contextWindow, buildOptions);
      const origins = inferOrigins(history);
      const keep = (i: number): boolean => mustKeepVerbatim(history[i]!, origins[i]);
      const primerEnd = primersEnd(history);
      let messages = assemble(history, origins, window);
      const summaries: SummaryRecord[] = [];
      const summarize = buildOptions?.summarize !== false;
      if (summarize && count(messages) >= COMPRESS_AT * window && history.length > primerEnd + 1) {
        const target = COMPRESS_TO * window;
        // The summary message: its text plus framing, with slack for tokens merging at the seam.
        const summarySize = options.summaryTokens + deps.tokenizer.countMessage(slidingSummaryMessage('')) + 2;
        const fixed = count(history.slice(0, primerEnd)) + summarySize;
        let start = Math.max(primerEnd, foldedUpTo, history.length - RECENTS);
        let recent = count(history.slice(start));
        let instructions = 0;
        for (let i = primerEnd; i < start; i++) if (keep(i)) instructions += counter(history[i]!);
        // Fewer recents when the last 20 alone are too big; a tool result never opens the window
        // (its call would be gone, which providers reject).
        while (
          start < history.length - 1 &&
          (fixed + instructions + recent > target || history[start]!.role === 'tool')
        ) {
          const n = counter(history[start]!);
          recent -= n;
          if (keep(start)) instructions += n;
          start++;
        }
        // The last turn's results alone can be over the target (one big output, parallel calls): the loop then
        // stops on a result, so the window opens at the call that asked for them.
        while (start > Math.max(foldedUpTo, primerEnd) && history[start]!.role === 'tool') start--;
        let replaced = 0;
        for (let i = primerEnd; i < start; i++) if (!keep(i)) replaced += counter(history[i]!);
        // Fold only when the summary is smaller than what it replaces (never send more than raw).
        if (start > Math.max(foldedUpTo, primerEnd) && replaced > summarySize) {
          const from = Math.max(foldedUpTo, primerEnd);
          const folded = history.slice(from, start);
          const asked = personMessagesBefore(history, origins, from);
          const prompt = buildSummaryPrompt(folded, summary, options.summaryTokens, asked);
          summary = await deps.summarizer.summarize(folded, summary, asked);
          summaries.push({
            fromTurn: assistantsBefore(history, Math.max(foldedUpTo, primerEnd)),
            toTurn: assistantsBefore(history, start),
            inputTokens: count(prompt),
            outputTokens: deps.tokenizer.count(summary),
            estimated: deps.summarizer.estimated,
            text: summary,
          });
          foldedUpTo = start;
          messages = assemble(history, origins, window);
        }
      }
      // The primers keep the first call's results, which nothing folds: when the context is still over the
      // window (a huge first read), they are masked like any old output, unless that call is the latest turn.
      let masked: MaskRecord[] = [];
      if (count(messages) > window) ({ messages, masked } = maskPrimerOutputs(history, messages, primerEnd));
      // Folded as far as it goes (or as it could without the summarizer) and still over: the agent says so
      // instead of sending.
      const size = count(messages);
      return {
        messages,
        masked,
        summaries,
        summarizedTurns:
          summary !== undefined ? assistantsBefore(history, foldedUpTo) - assistantsBefore(history, primerEnd) : 0,
        ...(size > window ? { overWindow: { tokens: size, window } } : {}),
      };
    },
  };
}
