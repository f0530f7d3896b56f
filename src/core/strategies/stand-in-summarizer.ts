// Replay has no model to call: this stand-in returns text of a fixed token size that says it is a
// stand-in, so the context size and cost are estimated honestly and never passed off as a summary.
import type { Message, Tokenizer } from '../messages';
import type { Summarizer } from './types';

export function createStandInSummarizer(tokenizer: Tokenizer, summaryTokens: number): Summarizer {
  let calls = 0;
  return {
    estimated: true,
    summarize(messages: readonly Message[]): Promise<string> {
      calls++;
      const head =
        `[stand-in #${calls}: no summarizer model was called; this text only occupies the ` +
        `${summaryTokens} tokens a real summary would take. ${messages.length} messages folded.]\n` +
        'USER_CONTEXT: (not summarized)\nCOMPLETED: (not summarized)\nPENDING: (not summarized)\nCODE_STATE: (not summarized)\n';
      return Promise.resolve(fitToTokens(head, summaryTokens, tokenizer));
    },
  };
}

/** `head` padded (or cut) to `target` tokens, as closely as the tokenizer allows. */
export function fitToTokens(head: string, target: number, tokenizer: Tokenizer): string {
  if (tokenizer.count(head) >= target) {
    // Cut by characters (binary search on the prefix length).
    let lo = 0;
    let hi = head.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (tokenizer.count(head.slice(0, mid)) <= target) lo = mid;
      else hi = mid - 1;
    }
    return head.slice(0, lo);
  }
  // Pad with a word that is one token in every tokenizer we ship; binary search the count.
  const pad = (n: number): string => head + ' pad'.repeat(n);
  let lo = 0;
  let hi = target;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (tokenizer.count(pad(mid)) <= target) lo = mid;
    else hi = mid - 1;
  }
  return pad(lo);
}
