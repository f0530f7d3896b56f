// Token counting: exact (tiktoken o200k_base / cl100k_base) or the labelled chars/4 estimate.
//
// Per-message overhead follows OpenAI's documented chat format (the "num_tokens_from_messages" recipe):
// every message costs 3 framing tokens plus the tokens of its role and content; a `name` adds its tokens
// plus 1. Each tool call adds the tokens of its name and its arguments plus TOOL_CALL_FRAMING for the
// JSON/function wrapper. Tool-call ids are not counted (the format does not show them to the model), and
// the 3 tokens that prime the reply are per request, not per message, so they are left to the caller.
import type { Message, Tokenizer } from '../messages';
import { CountCache } from './cache';
import { acquireEncoding, type EncodingLease } from './encodings';
import { IdleTimer, type IdleScheduler } from './idle';

export type TokenizerName = Tokenizer['name'];
export const TOKENIZER_NAMES: readonly TokenizerName[] = ['o200k', 'cl100k', 'chars4'];

export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 1;
export const TOOL_CALL_FRAMING = 3;
/** Default cache bound: 64 M characters of distinct content (a few hundred MB at worst). */
export const DEFAULT_CACHE_CHARS = 64 * 1024 * 1024;
/** An exact tokenizer unused this long lets its encoding go (reloading takes ~0.3 s). */
export const DEFAULT_IDLE_MS = 5 * 60_000;

export interface TokenizerOptions {
  cacheChars?: number;
  /** Release the encoding after this long without a count (the cached counts stay). */
  idleMs?: number;
  /** Timers for the idle release (tests drive it by hand). */
  scheduler?: IdleScheduler;
}

abstract class CachingTokenizer implements Tokenizer {
  abstract readonly name: TokenizerName;
  abstract readonly exact: boolean;
  protected readonly cache: CountCache;
  private readonly roleTokens = new Map<string, number>();

  constructor(options: TokenizerOptions) {
    this.cache = new CountCache(options.cacheChars ?? DEFAULT_CACHE_CHARS);
  }

  protected abstract measure(text: string): number;

  count(text: string): number {
    if (text.length === 0) return 0;
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    const n = this.measure(text);
    this.cache.set(text, n);
    return n;
  }

  countMessage(message: Message): number {
    let role = this.roleTokens.get(message.role);
    if (role === undefined) {
      role = this.measure(message.role);
      this.roleTokens.set(message.role, role);
    }
    let n = TOKENS_PER_MESSAGE + role + this.count(message.content) + (message.mediaTokens ?? 0);
    if (message.name !== undefined) n += this.count(message.name) + TOKENS_PER_NAME;
    for (const call of message.toolCalls ?? []) {
      n += TOOL_CALL_FRAMING + this.count(call.name) + this.count(call.arguments);
    }
    return n;
  }

  /** Distinct texts currently cached (for tests and diagnostics). */
  get cachedTexts(): number {
    return this.cache.size;
  }

  /** Forgets the cached counts (the session they belonged to is closed). */
  release(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.cache.clear();
  }
}

/**
 * Exact counts through tiktoken. The encoding is loaded on the first count that misses the cache,
 * shared with every other tokenizer of the same name in the process (encodings.ts), and let go after
 * `idleMs` without a count, on `release()` and on `dispose()`.
 */
export class TiktokenTokenizer extends CachingTokenizer {
  readonly exact = true;
  private lease: EncodingLease | undefined;
  private disposed = false;
  private readonly idle: IdleTimer;

  constructor(
    readonly name: 'o200k' | 'cl100k',
    options: TokenizerOptions = {},
  ) {
    super(options);
    this.idle = new IdleTimer(options.idleMs ?? DEFAULT_IDLE_MS, () => this.releaseEncoding(), options.scheduler);
  }

  /** True while this tokenizer holds its encoding. */
  get loaded(): boolean {
    return this.lease !== undefined;
  }

  protected measure(text: string): number {
    if (this.disposed) throw new Error(`tokenizer ${this.name} was disposed`);
    this.lease ??= acquireEncoding(this.name);
    this.idle.touch();
    return this.lease.count(text);
  }

  private releaseEncoding(): void {
    this.idle.cancel();
    this.lease?.release();
    this.lease = undefined;
  }

  /** Lets the encoding go and forgets cached counts; counting again reloads it. */
  override release(): void {
    super.release();
    this.releaseEncoding();
  }

  /** Lets the encoding go for good; counting afterwards throws. */
  override dispose(): void {
    super.dispose();
    this.releaseEncoding();
    this.disposed = true;
  }
}

/** chars/4 rounded up: an estimate, labelled as such (`exact: false`) wherever it is shown. */
export class Chars4Tokenizer extends CachingTokenizer {
  readonly name = 'chars4';
  readonly exact = false;

  protected measure(text: string): number {
    return Math.ceil(text.length / 4);
  }

  override count(text: string): number {
    return Math.ceil(text.length / 4); // no cache: computing is cheaper than looking up
  }
}

export function createTokenizer(
  name: TokenizerName,
  options: TokenizerOptions = {},
): TiktokenTokenizer | Chars4Tokenizer {
  switch (name) {
    case 'o200k':
    case 'cl100k':
      return new TiktokenTokenizer(name, options);
    case 'chars4':
      return new Chars4Tokenizer(options);
    default:
      throw new Error(`unknown tokenizer '${String(name)}' (expected one of ${TOKENIZER_NAMES.join(', ')})`);
  }
}

export function isTokenizerName(s: string): s is TokenizerName {
  return (TOKENIZER_NAMES as readonly string[]).includes(s);
}
