// Checkpoints (summary strategy) and the prompt a real summarizer LLM gets. The agent loop uses the
// same prompt with a real model; replay only counts its tokens.
import type { Message, Origin } from '../messages';
import { summarisedInstructionsNote } from './instructions';

export const CHECKPOINT_SECTIONS = ['USER_CONTEXT', 'COMPLETED', 'PENDING', 'CODE_STATE'] as const;

/** `summarisedInstructions`: a person's instructions this checkpoint stands for (the window was full). */
export function checkpointHeader(turns: number, summarisedInstructions = 0): string {
  return `Checkpoint for the last ${turns} turns${summarisedInstructionsNote(summarisedInstructions)}:`;
}

/** The message that stands for summarized turns in the context (written for the agent: origin `agent`). */
export function checkpointMessage(turns: number, summary: string, summarisedInstructions = 0): Message {
  return { role: 'user', origin: 'agent', content: `${checkpointHeader(turns, summarisedInstructions)}\n${summary}` };
}

export const SLIDING_SUMMARY_PREFIX = 'Previous context summary:';

export function slidingSummaryMessage(summary: string, summarisedInstructions = 0): Message {
  const note = summarisedInstructionsNote(summarisedInstructions);
  return { role: 'user', origin: 'agent', content: `${SLIDING_SUMMARY_PREFIX}${note} ${summary}` };
}

export const SUMMARIZER_SYSTEM_PROMPT = [
  'You maintain the working memory of a coding agent. You receive what the user asked (the task and',
  'any later instructions), the previous checkpoint (none at first) and the turns that happened since.',
  'Write an updated checkpoint that replaces the previous one: the agent will see the task, your',
  'checkpoint and its most recent turns.',
  '',
  'Write exactly these four sections, each a short list of facts, in the language of the conversation:',
  'USER_CONTEXT: what the user asked for, constraints, preferences, the acceptance criteria.',
  'COMPLETED: what was done and verified, with the decisive results (test names, error messages, numbers).',
  'PENDING: what remains, open questions, hypotheses not yet checked, what failed and must not be retried.',
  'CODE_STATE: files and symbols touched or inspected (paths, functions, line ranges) and their state.',
  '',
  'Keep every decision, discovery, entity (file, function, command, identifier) and open question.',
  'Do not invent facts; write "unknown" rather than guess. Keep paths of stored outputs so they can be',
  're-read. Stay under the token budget you are given.',
].join('\n');

function render(m: Message): string {
  const calls = (m.toolCalls ?? []).map((c) => `\n[tool call ${c.name} ${c.arguments}]`).join('');
  const who = m.role === 'tool' ? `tool${m.name ? ` ${m.name}` : ''}` : m.role;
  return `<${who}>\n${m.content}${calls}\n</${who}>`;
}

/**
 * The summarizer's request: instructions, what the user asked before the folded turns (`asked`: the task
 * and earlier instructions, which the strategy keeps out of the turns), the previous checkpoint, the
 * turns to fold in.
 */
export function buildSummaryPrompt(
  messages: readonly Message[],
  previousCheckpoint: string | undefined,
  budgetTokens: number,
  asked: readonly Message[] = [],
): Message[] {
  const previous = previousCheckpoint ?? '(none yet: this is the first checkpoint)';
  const task = asked.length > 0 ? asked.map(render).join('\n') : '(not given)';
  return [
    { role: 'system', content: `${SUMMARIZER_SYSTEM_PROMPT}\nToken budget: ${budgetTokens}.` },
    {
      role: 'user',
      content:
        `WHAT THE USER ASKED:\n${task}\n\nPREVIOUS CHECKPOINT:\n${previous}\n\n` +
        `TURNS SINCE:\n${messages.map(render).join('\n')}`,
    },
  ];
}

/** The person's messages before `end` (the task and instructions given so far), for the summarizer. */
export function personMessagesBefore(
  history: readonly Message[],
  origins: readonly (Origin | undefined)[],
  end: number,
): Message[] {
  return history.slice(0, end).filter((_, i) => origins[i] === 'person');
}
