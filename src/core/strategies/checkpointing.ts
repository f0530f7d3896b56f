// Shared by `summary` and `hybrid`: when at least N + M turns are unsummarized, fold the oldest N into
// a checkpoint conditioned on the previous one (SummarizeEveryNTurns with static checkpointing). A person's
// instructions given during the folded turns stay verbatim just before the checkpoint.
import { splitTurns, type Message } from '../messages';
import { buildSummaryPrompt, checkpointMessage, personMessagesBefore } from './checkpoint';
import { fitInstructions, internedMessages } from './instructions';
import { maskTurns, publishedMaskedTurns } from './mask-turns';
import { messageCounter, sumTokens } from '../cost/message-tokens';
import {
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type StrategyDeps,
  type StrategyName,
  type SummaryRecord,
} from './types';

export interface CheckpointParams {
  name: StrategyName;
  /** Turns folded per checkpoint. */
  every: number;
  /** Most recent turns never summarized. */
  keep: number;
  summaryTokens: number;
  /** Hybrid: also mask observations older than the last `window` turns, with `polling`. */
  mask?: { window: number; polling: number };
  /** Folded instructions stay verbatim unless they would overflow this window. */
  contextWindow: number;
}

export function createCheckpointingStrategy(deps: StrategyDeps, p: CheckpointParams): ContextStrategy {
  let summarized = 0;
  let checkpoint: string | undefined;
  let checkpointMsg: Message | undefined;
  const cpMessage = internedMessages((content) => ({ role: 'user', origin: 'agent', content }));
  const count = messageCounter(deps.tokenizer);
  return {
    name: p.name,
    async build(history: readonly Message[], options?: BuildOptions): Promise<ContextResult> {
      const split = splitTurns(history);
      const turns = split.turns;
      const boundary = p.mask ? publishedMaskedTurns(turns.length, p.mask.window, p.mask.polling) : 0;
      const view = maskTurns(history, split, 0, boundary, count);
      const summaries: SummaryRecord[] = [];
      while (options?.summarize !== false && turns.length - summarized >= p.every + p.keep) {
        const from = summarized;
        const to = from + p.every;
        // The summarizer sees the turns as the agent saw them (masked in hybrid).
        const folded = view.messages.slice(turns[from]!.actionIndex, turns[to]!.actionIndex);
        const asked = personMessagesBefore(history, split.origins, turns[from]!.actionIndex);
        const prompt = buildSummaryPrompt(folded, checkpoint, p.summaryTokens, asked);
        const text = await deps.summarizer.summarize(folded, checkpoint, asked);
        checkpoint = text;
        checkpointMsg = checkpointMessage(p.every, text);
        summarized = to;
        summaries.push({
          fromTurn: from,
          toTurn: to,
          inputTokens: prompt.reduce((n, m) => n + count(m), 0),
          outputTokens: deps.tokenizer.count(text),
          estimated: deps.summarizer.estimated,
          text,
        });
      }
      if (!checkpointMsg || checkpoint === undefined)
        return { messages: view.messages, masked: view.masked, summaries, summarizedTurns: 0 };
      const start = turns[summarized]?.actionIndex ?? history.length;
      const head = view.messages.slice(0, split.prefixEnd);
      const tail = view.messages.slice(start);
      const folded = turns.slice(0, summarized).flatMap((t) => t.instructionIndices);
      const spare = usableWindow(p.contextWindow, options) - sumTokens([...head, checkpointMsg, ...tail], count);
      const { kept, summarised } = fitInstructions(folded, history, split.origins, spare, count);
      const cp =
        summarised === 0 ? checkpointMsg : cpMessage(checkpointMessage(p.every, checkpoint, summarised).content);
      return {
        messages: [...head, ...kept.map((i) => view.messages[i]!), cp, ...tail],
        masked: view.masked.filter((r) => r.index >= start),
        summaries,
        summarizedTurns: summarized,
      };
    },
  };
}
