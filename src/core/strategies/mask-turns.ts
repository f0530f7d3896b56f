// Shared by masking, hybrid and cache-aware: replace the observations of the first turns by placeholders.
import type { Message, SplitTrajectory } from '../messages';
import type { MessageCounter } from '../cost/message-tokens';
import { linesOf, maskMessage } from './placeholder';
import type { MaskRecord } from './types';

export interface Masked {
  messages: Message[];
  masked: MaskRecord[];
}

/**
 * Masks the observations of turns [fromTurn, toTurn) of `split` (computed on `history`). Actions,
 * reasoning and the task (everything before the first assistant message) are never touched. An
 * observation that is already no longer than its placeholder stays verbatim: masking it would add tokens.
 */
export function maskTurns(
  history: readonly Message[],
  split: SplitTrajectory,
  fromTurn: number,
  toTurn: number,
  count: MessageCounter,
): Masked {
  const messages = history.slice();
  const masked: MaskRecord[] = [];
  const end = Math.min(toTurn, split.turns.length);
  for (let t = Math.max(0, fromTurn); t < end; t++) {
    for (const i of split.turns[t]!.observationIndices) {
      const original = history[i]!;
      const placeholder = maskMessage(original);
      if (count(placeholder) >= count(original)) continue;
      messages[i] = placeholder;
      const lines = linesOf(original);
      masked.push(
        original.storedAt === undefined ? { index: i, lines } : { index: i, lines, storedAt: original.storedAt },
      );
    }
  }
  return { messages, masked };
}

/**
 * How many leading turns the published masking (`LastNObservations`) hides with `turns` complete turns:
 * it counts the task as observation 0 and advances the boundary only every `polling` observations.
 */
export function publishedMaskedTurns(turns: number, window: number, polling: number): number {
  const observations = turns + 1;
  return Math.max(0, Math.floor(observations / polling) * polling - window - 1);
}

/** Tokens masking the observations of turns [from, to) saves (an observation no longer than its placeholder stays). */
export function maskingSavings(
  history: readonly Message[],
  split: SplitTrajectory,
  from: number,
  to: number,
  count: MessageCounter,
): number {
  let saved = 0;
  for (let t = Math.max(0, from); t < Math.min(to, split.turns.length); t++) {
    for (const i of split.turns[t]!.observationIndices)
      saved += Math.max(0, count(history[i]!) - count(maskMessage(history[i]!)));
  }
  return saved;
}

/**
 * The first boundary from `from` on at which a context of `size` tokens (with `from` turns masked) fits
 * `limit`, masking one more turn at a time; never the last turn, whose outputs the model has not answered.
 */
export function boundaryToFit(
  history: readonly Message[],
  split: SplitTrajectory,
  from: number,
  size: number,
  limit: number,
  count: MessageCounter,
): number {
  let boundary = from;
  while (size > limit && boundary < split.turns.length - 1) {
    size -= maskingSavings(history, split, boundary, boundary + 1, count);
    boundary++;
  }
  return boundary;
}
