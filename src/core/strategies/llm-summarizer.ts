// The Summarizer port backed by a model: the agent loop passes its own completion function (an LLM in
// the extension); the prompt is the one replay counts, so replay estimates and real runs agree.
import type { Message } from '../messages';
import { buildSummaryPrompt } from './checkpoint';
import type { Summarizer } from './types';

export type Complete = (messages: Message[]) => Promise<string>;

export function createLlmSummarizer(complete: Complete, budgetTokens: number): Summarizer {
  return {
    estimated: false,
    async summarize(messages, previousCheckpoint) {
      const text = (await complete(buildSummaryPrompt(messages, previousCheckpoint, budgetTokens))).trim();
      // An empty answer would silently erase the history it replaces: refuse it.
      if (text.length === 0) throw new Error('The summarizer model returned an empty checkpoint; the turns were kept.');
      return text;
    },
  };
}
