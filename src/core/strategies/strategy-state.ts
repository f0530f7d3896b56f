// What a strategy keeps between calls, as plain JSON, so a continued session (a resume, or any setting
// changed while idle) goes on with the same checkpoint and mask boundary instead of summarizing again and
// breaking the cached prefix. A saved state may come from a history file (a cloned repository's, say):
// it is checked against the conversation it continues before any of it reaches the model.
import { splitTurns, type Message } from '../messages';

/** `summary` and `hybrid`: turns [0, summarizedTurns) live in `checkpoint`, the summarizer's last answer. */
export interface CheckpointState {
  strategy: 'summary' | 'hybrid';
  summarizedTurns: number;
  checkpoint: string;
}

/** `sliding-window`: messages [primers, foldedUpTo) live in `summary`. */
export interface SlidingWindowState {
  strategy: 'sliding-window';
  foldedUpTo: number;
  summary: string;
}

/** `cache-aware`: the turns masked, the regret saved up, and the length of the request it last built. */
export interface CacheAwareState {
  strategy: 'cache-aware';
  boundary: number;
  regret: number;
  previousLength: number;
}

export type StrategyState = CheckpointState | SlidingWindowState | CacheAwareState;

/** A summary longer than this is no summary the session wrote (the summarizer is asked for a few hundred tokens). */
export const MAX_SUMMARY_CHARS = 200_000;

/** What the saved state continues: the conversation, and whether any summary call was made in it. */
export interface StateContext {
  messages: readonly Message[];
  summaryCalls: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function fail(why: string): never {
  throw new TypeError(why);
}

function summaryText(v: unknown, what: string, c: StateContext): string {
  if (typeof v !== 'string' || v.trim() === '') fail(`${what} is not a non-empty string`);
  if (v.length > MAX_SUMMARY_CHARS) fail(`${what} has ${v.length} characters (at most ${MAX_SUMMARY_CHARS})`);
  // Only a summary the session made goes back to the model: its summary call is on record.
  if (c.summaryCalls === 0) fail(`${what} is given but the session has no summary call on record`);
  return v;
}

/**
 * Checks a saved strategy state against the conversation it continues; returns a clean copy (no extra
 * fields) or throws a TypeError that says what is wrong.
 */
export function parseStrategyState(value: unknown, c: StateContext): StrategyState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not an object');
  const o = value as Record<string, unknown>;
  const turns = splitTurns(c.messages).turns.length;
  switch (o.strategy) {
    case 'summary':
    case 'hybrid': {
      // The latest turn is never folded.
      if (!isCount(o.summarizedTurns) || o.summarizedTurns < 1 || o.summarizedTurns >= turns)
        fail(`summarizedTurns ${JSON.stringify(o.summarizedTurns)} is not between 1 and ${turns - 1}`);
      const checkpoint = summaryText(o.checkpoint, 'checkpoint', c);
      return { strategy: o.strategy, summarizedTurns: o.summarizedTurns, checkpoint };
    }
    case 'sliding-window': {
      if (!isCount(o.foldedUpTo) || o.foldedUpTo < 1 || o.foldedUpTo >= c.messages.length)
        fail(`foldedUpTo ${JSON.stringify(o.foldedUpTo)} is not between 1 and ${c.messages.length - 1}`);
      if (c.messages[o.foldedUpTo]!.role === 'tool')
        fail(`foldedUpTo ${o.foldedUpTo} splits a tool call from its result`);
      return { strategy: 'sliding-window', foldedUpTo: o.foldedUpTo, summary: summaryText(o.summary, 'summary', c) };
    }
    case 'cache-aware': {
      if (!isCount(o.boundary) || o.boundary > turns)
        fail(`boundary ${JSON.stringify(o.boundary)} is not between 0 and ${turns}`);
      if (typeof o.regret !== 'number' || !Number.isFinite(o.regret) || o.regret < 0)
        fail(`regret ${JSON.stringify(o.regret)} is not a number >= 0`);
      if (!isCount(o.previousLength) || o.previousLength > c.messages.length)
        fail(`previousLength ${JSON.stringify(o.previousLength)} is not between 0 and ${c.messages.length}`);
      return { strategy: 'cache-aware', boundary: o.boundary, regret: o.regret, previousLength: o.previousLength };
    }
    default:
      return fail(`strategy ${JSON.stringify(o.strategy)} keeps no state`);
  }
}
