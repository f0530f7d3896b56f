// Shared by masking, hybrid and cache-aware: replace the observations of the first turns by placeholders.
import type { Message, SplitTrajectory } from '../messages';
import type { MessageCounter } from '../cost/message-tokens';
import { linesOf, maskMessage } from './placeholder';
import type { ContextResult, MaskRecord } from './types';

export interface Masked {
  messages: Message[];
  masked: MaskRecord[];
}

/** A masked view as a strategy's result; `size` over `window` is said (see ContextResult.overWindow). */
export function maskedResult(view: Masked, size: number, window: number): Promise<ContextResult> {
  return Promise.resolve({
    messages: view.messages,
    masked: view.masked,
    summaries: [],
    summarizedTurns: 0,
    ...(size > window ? { overWindow: { tokens: size, window } } : {}),
  });
}

/**
 * Whether masking may replace `m`: an output whose full text could not be stored (`unstored`) only when the
 * window forces it (`force`), as a mask of it has no way back; kept verbatim, the cached prefix holds too.
 */
function maskable(m: Message, force: boolean): boolean {
  return force || m.unstored !== true;
}

/**
 * Masks the observations of turns [fromTurn, toTurn) of `split` (computed on `history`). Actions,
 * reasoning and the task (everything before the first assistant message) are never touched. An
 * observation that is already no longer than its placeholder stays verbatim: masking it would add tokens.
 * `force` (the window leaves no other way): unstored outputs are masked too, their records without a file.
 */
export function maskTurns(
  history: readonly Message[],
  split: SplitTrajectory,
  fromTurn: number,
  toTurn: number,
  count: MessageCounter,
  force = false,
): Masked {
  const messages = history.slice();
  const masked: MaskRecord[] = [];
  const end = Math.min(toTurn, split.turns.length);
  for (let t = Math.max(0, fromTurn); t < end; t++) {
    for (const i of split.turns[t]!.observationIndices) {
      const original = history[i]!;
      if (!maskable(original, force)) continue;
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
  force = false,
): number {
  let saved = 0;
  for (let t = Math.max(0, from); t < Math.min(to, split.turns.length); t++) {
    for (const i of split.turns[t]!.observationIndices)
      if (maskable(history[i]!, force)) saved += Math.max(0, count(history[i]!) - count(maskMessage(history[i]!)));
  }
  return saved;
}

/**
 * Turns whose outputs the window may force masked: all but the latest, whose outputs the model has yet to
 * answer, unless a person spoke after them (a follow-up after a stop): the next reply answers the person,
 * and outputs too large for the window would otherwise refuse every later message.
 */
export function maskableTurns(split: SplitTrajectory): number {
  const last = split.turns.at(-1);
  if (!last) return 0;
  const spoke = last.instructionIndices.at(-1) ?? -1;
  return spoke > (last.observationIndices.at(-1) ?? -1) ? split.turns.length : split.turns.length - 1;
}

/**
 * The first boundary from `from` on at which a context of `size` tokens (with `from` turns masked) fits
 * `limit`, masking one more turn at a time, up to `maskableTurns`; `force` as in `maskTurns`.
 */
export function boundaryToFit(
  history: readonly Message[],
  split: SplitTrajectory,
  from: number,
  size: number,
  limit: number,
  count: MessageCounter,
  force = false,
): number {
  let boundary = from;
  const end = maskableTurns(split);
  while (size > limit && boundary < end) {
    size -= maskingSavings(history, split, boundary, boundary + 1, count, force);
    boundary++;
  }
  return boundary;
}

/**
 * Tokens of the view that masks turns [0, boundary), from sums kept across calls: between calls the
 * history only grows, so each message and each closed turn's savings is added once (a long replay builds
 * thousands of views). A history that is not the previous one grown starts the sums afresh.
 */
export function maskedViewSizer(
  count: MessageCounter,
): (history: readonly Message[], split: SplitTrajectory, boundary: number, force?: boolean) => number {
  let counted = 0;
  let raw = 0;
  let lastCounted: Message | undefined;
  const kept: [number[], number[]] = [[], []]; // per turn, without and with `force`
  return (history, split, boundary, force = false) => {
    if (counted > history.length || (counted > 0 && history[counted - 1] !== lastCounted)) {
      counted = 0;
      raw = 0;
      kept[0].length = 0;
      kept[1].length = 0;
    }
    const savings = kept[force ? 1 : 0];
    for (; counted < history.length; counted++) raw += count(history[counted]!);
    lastCounted = history[counted - 1];
    let saved = 0;
    for (let t = 0; t < Math.min(boundary, split.turns.length); t++) {
      // Only closed turns are kept: the last one may still get outputs.
      const s = savings[t] ?? maskingSavings(history, split, t, t + 1, count, force);
      if (t < split.turns.length - 1) savings[t] = s;
      saved += s;
    }
    return raw - saved;
  };
}
