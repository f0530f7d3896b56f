// Anthropic's prompt cache, billed as it works, for requests laid out by our Anthropic provider. From
// Anthropic's prompt-caching docs (https://platform.claude.com/docs/en/build-with-claude/prompt-caching):
// - the prompt is tools, then system, then messages; a `cache_control` breakpoint caches the prefix that
//   ends at its block, and a request may carry at most 4 breakpoints;
// - at each breakpoint the cache is looked up at that block and at earlier block boundaries, up to about
//   20 blocks before it; a hit is an identical prefix an earlier request wrote (cache_read_input_tokens);
// - what lies between the read and the last breakpoint is written (cache_creation_input_tokens), what
//   follows the last breakpoint is plain input; a prefix shorter than the model's minimum is not cached.
// So a prefix shared with the previous request is read only up to the last point an earlier request wrote
// that the lookback reaches, not up to the first change: the generic model (prefix-cache.ts) overstates it.
import type { Message } from '../messages';
import { anthropicBlockCount, anthropicBreakpoints } from './anthropic-breakpoints';
import type { MessageCounter } from './message-tokens';
import { commonPrefixLength } from './prefix-cache';

/**
 * How long an entry our provider writes (default `ephemeral` breakpoints) lives after the last request that
 * read or wrote it: 5 minutes. The generic cache has no such figure: OpenAI keeps a prefix "5 to 10
 * minutes" and up to an hour, or 24 hours when asked, DeepSeek on disk for hours; it is not expired.
 */
export const ANTHROPIC_CACHE_TTL_MS = 5 * 60_000;

/** How far before a breakpoint the cache is looked up, in blocks ("about 20" in the docs). */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/** Stands for the prefix of tools and system alone (the system prompt's own breakpoint). */
const HEAD = -1;

/** What the cache holds after a request: enough to bill the next one of the same conversation. */
export interface AnthropicCacheState {
  messages: readonly Message[];
  breakpoints: readonly number[];
  /** Tools and system prompt: any change there changes every prefix. */
  head: string;
  /** Message indices (HEAD: tools and system alone) whose prefix, as in `messages`, is in the cache. */
  entries: readonly number[];
}

export interface AnthropicCacheBill {
  /** Tokens read from the cache. */
  cached: number;
  /** Tokens written to the cache. */
  written: number;
  /** Message indices our provider marks (the system prompt's breakpoint aside). */
  breakpoints: number[];
  /** The cache after this request, for the next one. */
  next: AnthropicCacheState;
}

export interface AnthropicCacheInput {
  /** The tool definitions as sent (any stable key: a change invalidates every prefix). */
  toolsKey: string;
  toolTokens: number;
  /** The model's shortest cached prefix. */
  minCachedTokens: number;
}

/**
 * Cache reads and writes of one request (`messages`) after `previous` (undefined: nothing cached), with
 * breakpoints where our Anthropic provider puts them (anthropic-breakpoints.ts). Tokens are ours (`count`);
 * tools and system messages count toward every prefix, as Anthropic puts them first.
 */
export function anthropicCacheBill(
  previous: AnthropicCacheState | undefined,
  messages: readonly Message[],
  count: MessageCounter,
  c: AnthropicCacheInput,
): AnthropicCacheBill {
  const system = messages.filter((m) => m.role === 'system');
  const hasSystem = system.length > 0;
  const head = `${c.toolsKey}\u0000${system.map((m) => m.content).join('\n\n')}`;
  // Tokens and last block position of each prefix (HEAD: tools and system).
  const headTokens = c.toolTokens + system.reduce((n, m) => n + count(m), 0);
  const tokensThrough: number[] = [];
  const blockOf: number[] = [];
  let tokens = headTokens;
  let blocks = hasSystem ? 1 : 0;
  for (const m of messages) {
    if (m.role !== 'system') tokens += count(m);
    blocks += anthropicBlockCount(m);
    tokensThrough.push(tokens);
    blockOf.push(blocks - 1);
  }
  const tokensAt = (i: number): number => (i === HEAD ? headTokens : tokensThrough[i]!);
  const blockAt = (i: number): number => (i === HEAD ? 0 : blockOf[i]!);

  const breakpoints = anthropicBreakpoints(messages, previous?.messages, previous?.breakpoints);
  const marked = [...(hasSystem ? [HEAD] : []), ...breakpoints];
  // Entries written before whose prefix this request repeats.
  const stable = previous && previous.head === head ? commonPrefixLength(previous.messages, messages) : -1;
  const entries = previous && stable >= 0 ? previous.entries.filter((e) => e < stable) : [];

  let read = HEAD - 1; // none
  for (const p of marked) {
    const reach = blockAt(p) - ANTHROPIC_LOOKBACK_BLOCKS;
    for (const e of entries) if (e <= p && blockAt(e) >= reach && e > read) read = e;
  }
  const cached = read >= HEAD ? tokensAt(read) : 0;
  const last = marked[marked.length - 1];
  const lastTokens = last === undefined ? 0 : tokensAt(last);
  const written = lastTokens >= c.minCachedTokens ? Math.max(0, lastTokens - cached) : 0;
  const added = marked.filter((p) => tokensAt(p) >= c.minCachedTokens);
  return {
    cached,
    written,
    breakpoints,
    next: {
      messages: messages.slice(),
      breakpoints,
      head,
      entries: [...new Set([...entries, ...added])].sort((a, b) => a - b),
    },
  };
}
