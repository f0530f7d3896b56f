// Shared by `summary` and `hybrid`: when at least N + M turns are unsummarized, fold the oldest N into
// a checkpoint conditioned on the previous one (SummarizeEveryNTurns with static checkpointing). A person's
// instructions given during the folded turns stay verbatim just before the checkpoint.
// The context also keeps under the window: hybrid first masks older outputs, and when that is not enough
// (or for `summary`) the turns before the last M are folded at once, more until the rest fills at most
// half the window (so the next forced fold is some turns away). The latest turn is never folded.
import { splitTurns, type Message, type SplitTrajectory } from '../messages';
import { buildSummaryPrompt, checkpointMessage, personMessagesBefore } from './checkpoint';
import { foldedPointers, storedOutputsOf } from './folded-pointers';
import { fitInstructions, internedMessages } from './instructions';
import { boundaryToFit, maskableTurns, maskTurns, publishedMaskedTurns, type Masked } from './mask-turns';
import { messageCounter, sumTokens } from '../cost/message-tokens';
import type { CheckpointState } from './strategy-state';
import {
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type StrategyDeps,
  type SummaryRecord,
} from './types';

export interface CheckpointParams {
  name: CheckpointState['strategy'];
  /** Turns folded per checkpoint. */
  every: number;
  /** Most recent turns never summarized. */
  keep: number;
  summaryTokens: number;
  /** Hybrid: also mask observations older than the last `window` turns, with `polling`. */
  mask?: { window: number; polling: number };
  /** The context stays under this window; folded instructions stay verbatim unless they would overflow it. */
  contextWindow: number;
}

/** A forced fold leaves the context at most this share of the window. */
export const FORCED_FOLD_TO = 0.5;

export function createCheckpointingStrategy(deps: StrategyDeps, p: CheckpointParams): ContextStrategy {
  let summarized = 0;
  let checkpoint: string | undefined;
  // One object per text (the plain checkpoint, and the one that also stands for instructions), so
  // repeated calls send and count the very same message.
  const plainMessage = internedMessages((content) => ({ role: 'user', origin: 'agent', content }));
  const notedMessage = internedMessages((content) => ({ role: 'user', origin: 'agent', content }));
  const count = messageCounter(deps.tokenizer);

  /** The checkpoint for turns [0, `folded`): header, the summary, then where those turns can be read. */
  const checkpointContent = (
    history: readonly Message[],
    split: SplitTrajectory,
    folded: number,
    text: string,
    summarised: number,
  ): string => {
    const pointers = foldedPointers(deps.historyPointer, storedOutputsOf(history, split, folded));
    const content = checkpointMessage(folded, text, summarised).content;
    return pointers ? `${content}\n\n${pointers}` : content;
  };

  return {
    name: p.name,
    snapshot: () =>
      checkpoint === undefined ? undefined : { strategy: p.name, summarizedTurns: summarized, checkpoint },
    restore(state) {
      if (state.strategy !== p.name) return;
      summarized = state.summarizedTurns;
      checkpoint = state.checkpoint;
    },
    async build(history: readonly Message[], options?: BuildOptions): Promise<ContextResult> {
      const split = splitTurns(history);
      const turns = split.turns;
      const last = turns.length - 1;
      const window = usableWindow(p.contextWindow, options);
      const summarize = options?.summarize !== false;
      const base = p.mask ? publishedMaskedTurns(turns.length, p.mask.window, p.mask.polling) : 0;
      const plain = (): Message => plainMessage(checkpointContent(history, split, summarized, checkpoint ?? '', 0));
      const cpTokens = (): number => (checkpoint === undefined ? 0 : count(plain()));
      // A checkpoint not written yet is counted at its budget, with its header and pointers.
      const estimate = (folded: number): number =>
        p.summaryTokens +
        deps.tokenizer.countMessage({ role: 'user', content: checkpointContent(history, split, folded, '', 0) });

      /** Tokens of the context with turns [0, `folded`) replaced by a checkpoint of `cp` tokens. */
      const sizeOf = (view: Masked, folded: number, cp: number): number => {
        let size = sumTokens(view.messages, count) + cp;
        for (const turn of turns.slice(0, folded)) {
          size -= count(view.messages[turn.actionIndex]!);
          for (const i of turn.observationIndices) size -= count(view.messages[i]!);
        }
        return size;
      };

      /** Hybrid masks past its boundary when the context would not fit (turns already folded aside). */
      const masked = (): Masked => {
        const view = maskTurns(history, split, 0, base, count);
        if (!p.mask) {
          // Summary masks only the outputs of a latest turn a person spoke after, once all before is folded.
          if (summarized < last || maskableTurns(split) <= last) return view;
          const over = sizeOf(view, summarized, cpTokens()) > window;
          return over ? maskTurns(history, split, last, last + 1, count, true) : view;
        }
        const from = Math.max(base, summarized);
        const size = sizeOf(maskTurns(history, split, 0, from, count), summarized, cpTokens());
        const boundary = boundaryToFit(history, split, from, size, window, count);
        const fitted = boundary > from ? maskTurns(history, split, 0, boundary, count) : view;
        // An output whose full text has no file is masked only when nothing else fits (mask-turns.ts).
        if (sizeOf(fitted, summarized, cpTokens()) <= window) return fitted;
        const forcedSize = sizeOf(maskTurns(history, split, 0, from, count, true), summarized, cpTokens());
        const forced = boundaryToFit(history, split, from, forcedSize, window, count, true);
        return maskTurns(history, split, 0, forced, count, true);
      };

      /** Where the next fold ends, or undefined when none is due. */
      const nextFold = (view: Masked): number | undefined => {
        if (turns.length - summarized >= p.every + p.keep) return summarized + p.every;
        if (summarized >= last || sizeOf(view, summarized, cpTokens()) <= window) return undefined;
        let to = Math.min(last, Math.max(summarized + 1, turns.length - p.keep));
        while (to < last && sizeOf(view, to, estimate(to)) > FORCED_FOLD_TO * window) to++;
        return to;
      };

      const summaries: SummaryRecord[] = [];
      let view = masked();
      for (let to = summarize ? nextFold(view) : undefined; to !== undefined; to = nextFold(view)) {
        const from = summarized;
        // The summarizer sees the turns as the agent saw them (masked in hybrid).
        const folded = view.messages.slice(turns[from]!.actionIndex, turns[to]!.actionIndex);
        const asked = personMessagesBefore(history, split.origins, turns[from]!.actionIndex);
        const prompt = buildSummaryPrompt(folded, checkpoint, p.summaryTokens, asked);
        const text = await deps.summarizer.summarize(folded, checkpoint, asked);
        checkpoint = text;
        summarized = to;
        summaries.push({
          fromTurn: from,
          toTurn: to,
          inputTokens: prompt.reduce((n, m) => n + count(m), 0),
          outputTokens: deps.tokenizer.count(text),
          estimated: deps.summarizer.estimated,
          text,
        });
        view = masked();
      }
      let messages = view.messages;
      let kept = view.masked;
      if (checkpoint !== undefined) {
        const start = turns[summarized]?.actionIndex ?? history.length;
        const head = view.messages.slice(0, split.prefixEnd);
        const tail = view.messages.slice(start);
        const foldedInstructions = turns.slice(0, summarized).flatMap((t) => t.instructionIndices);
        const bare = plain();
        const spare = window - sumTokens([...head, bare, ...tail], count);
        const fit = fitInstructions(foldedInstructions, history, split.origins, spare, count);
        const cp =
          fit.summarised === 0
            ? bare
            : notedMessage(checkpointContent(history, split, summarized, checkpoint, fit.summarised));
        messages = [...head, ...fit.kept.map((i) => view.messages[i]!), cp, ...tail];
        kept = view.masked.filter((r) => r.index >= start);
      }
      // Nothing left to fold or mask: the smallest context this strategy builds (without a new summary when
      // summarizing is off: the session then says the summary failed rather than send over the window).
      const size = sumTokens(messages, count);
      return {
        messages,
        masked: kept,
        summaries,
        summarizedTurns: checkpoint === undefined ? 0 : summarized,
        ...(size > window ? { overWindow: { tokens: size, window } } : {}),
      };
    },
  };
}
