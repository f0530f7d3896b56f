// The context strategies: what the agent loop and replay import.
export * from './types';
export { createStrategy } from './registry';
export { formatMaskPlaceholder, parseMaskPlaceholder, findPlaceholderPaths, countLines } from './placeholder';
export {
  buildSummaryPrompt,
  checkpointHeader,
  CHECKPOINT_SECTIONS,
  SLIDING_SUMMARY_PREFIX,
  SUMMARIZER_SYSTEM_PROMPT,
} from './checkpoint';
export { createStandInSummarizer } from './stand-in-summarizer';
export { TOOLS_USED_PREFIX } from './retry-filter';
