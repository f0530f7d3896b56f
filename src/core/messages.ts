// The canonical message form: chat messages as providers take them. Everything in the core speaks this.
import { inferOrigins, mustKeepVerbatim } from './provenance';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as the model produced them (JSON text, possibly malformed). */
  arguments: string;
}

/**
 * Who produced a message: a `person` (the task, a follow-up instruction), the `agent` (its actions and
 * answers), or the `environment` (tool results and other output it observed). Roles do not say this on
 * their own: some agent logs deliver observations as `user` messages, and a chat's follow-up is `user` too.
 */
export type Origin = 'person' | 'agent' | 'environment';

export interface Message {
  role: Role;
  content: string;
  /**
   * Provenance. The agent sets it on every message it appends except the system prompt; importers set it
   * by format. When absent, `inferOrigins` (src/core/provenance.ts) decides.
   */
  origin?: Origin;
  /** Assistant messages: the tool calls of this action. */
  toolCalls?: ToolCall[];
  /** Tool results: the call this message answers. */
  toolCallId?: string;
  /** Tool results: the tool's name, when known. */
  name?: string;
  /** Workspace-relative path of a file holding the full text (reversible masking names it). */
  storedAt?: string;
  /**
   * Tool results: writing the full text to a file failed (disk full, refused folder), so a placeholder
   * could name no file. Strategies keep it verbatim, masking it only when the window leaves no other way.
   */
  unstored?: true;
  /** Replay: tokens of images sent with this message, as the provider bills them (not in `content`). */
  mediaTokens?: number;
}

// Recorded runs (replay) live with their importers; re-exported for the modules that take them.
export type { Trajectory, TrajectoryFormat } from './trajectories/types';

/** One turn: one assistant action plus the observations that answer it. */
export interface Turn {
  /** Index of the action in the message list. */
  actionIndex: number;
  action: Message;
  /** Indices of the observation messages (tool results, or user messages that carry environment output). */
  observationIndices: number[];
  /**
   * Indices of the instructions that arrived after this action: a person's follow-ups (and system
   * messages). Never observations: no strategy masks, summarises away or drops them.
   */
  instructionIndices: number[];
}

export interface SplitTrajectory {
  /** System prompt and task: everything before the first assistant message. Never masked. */
  prefixEnd: number;
  turns: Turn[];
  /** Every message's origin, stated or inferred (`inferOrigins`). */
  origins: (Origin | undefined)[];
}

/**
 * Splits messages into the unmaskable prefix (system + task) and turns. A message after an assistant
 * message and before the next one is an instruction of that turn when a person wrote it (or it is a system
 * message), and an observation otherwise. Messages without an origin follow `inferOrigins`.
 */
export function splitTurns(messages: readonly Message[]): SplitTrajectory {
  const origins = inferOrigins(messages);
  const turns: Turn[] = [];
  let prefixEnd = messages.length;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      if (turns.length === 0) prefixEnd = i;
      turns.push({ actionIndex: i, action: m, observationIndices: [], instructionIndices: [] });
    } else if (turns.length > 0) {
      const turn = turns[turns.length - 1]!;
      (mustKeepVerbatim(m, origins[i]) ? turn.instructionIndices : turn.observationIndices).push(i);
    }
  }
  return { prefixEnd, turns, origins };
}

/** Counts tokens. Implementations cache per content so history is never re-tokenized. */
export interface Tokenizer {
  readonly name: 'o200k' | 'cl100k' | 'chars4';
  /** False for the chars/4 estimate: every place that shows its numbers labels them as estimates. */
  readonly exact: boolean;
  count(text: string): number;
  /** Tokens of one message including the per-message overhead (role, separators, tool-call framing). */
  countMessage(message: Message): number;
}
