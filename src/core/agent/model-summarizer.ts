// The Summarizer port backed by a real model call ("summary model"): the checkpoint prompt of
// src/core/strategies, temperature 0.2, no tools. The loop gives it the run's signal and a hook that asks
// the budget before the call.
import type { Message, Tokenizer } from '../messages';
import { buildSummaryPrompt } from '../strategies/checkpoint';
import type { Summarizer } from '../strategies/types';
import { collectChat, type ChatProvider } from './provider';

export interface ModelSummarizerOptions {
  provider: ChatProvider;
  model: string;
  tokenizer: Tokenizer;
  summaryTokens: number;
  signal: () => AbortSignal;
  /** Called before each summary call with its prompt tokens; throws to refuse it. */
  beforeCall?: (promptTokens: number) => Promise<void>;
  /** Called after each summary call with the tokens it used. */
  afterCall?: (inputTokens: number, outputTokens: number) => void;
}

export function createModelSummarizer(o: ModelSummarizerOptions): Summarizer {
  return {
    estimated: false,
    async summarize(messages: readonly Message[], previousCheckpoint: string | undefined): Promise<string> {
      const prompt = buildSummaryPrompt(messages, previousCheckpoint, o.summaryTokens);
      const promptTokens = prompt.reduce((n, m) => n + o.tokenizer.countMessage(m), 0);
      await o.beforeCall?.(promptTokens);
      const result = await collectChat(
        o.provider.chat({
          model: o.model,
          messages: prompt,
          tools: [],
          signal: o.signal(),
          temperature: 0.2,
          maxOutputTokens: o.summaryTokens * 2,
        }),
      );
      const text = result.text.trim();
      if (text === '') throw new Error('The summary model returned an empty summary; the turns were kept');
      o.afterCall?.(result.usage.inputTokens ?? promptTokens, result.usage.outputTokens ?? o.tokenizer.count(text));
      return text;
    },
  };
}
