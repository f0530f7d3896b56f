// Secret redaction before anything reaches disk: the rule table (rules/*.ts, formats from gitleaks'
// and trufflehog's coverage, as data) run by engine.ts, plus the user's own patterns.
//
// secretlint's recommended preset is not on this path: every format it knows is in the table, and its
// core keeps a performance mark per call forever (measured: ~6.5 KB retained per call, 130 MB after
// 20,000 calls), which a terminal flushed twice a second would pay without end. It stays a test oracle
// (test/unit/store/secret-oracle.test.ts): whatever it finds in the corpus, the table must redact.
import { compileCustomPatterns, type CustomPatternProblem } from './custom-patterns';
import { RedactionEngine, type Span } from './engine';
import { BUILTIN_RULES, type SecretRule } from './rules/index';

/** Counts of redacted secrets by rule id (e.g. `github-token`, `url-password`, `private-key`). */
export type RedactionCounts = Record<string, number>;

export interface RedactionResult {
  text: string;
  counts: RedactionCounts;
}

/** The start of a private key whose end has not arrived yet (streaming callers hold the text back). */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;

let engine = new RedactionEngine(BUILTIN_RULES);
let customValue: unknown = [];

/**
 * Sets the user's own patterns (see custom-patterns.ts) on top of the built-in rules, for every later
 * redaction in this process. Returns what was skipped and why; valid entries apply either way.
 */
export function setCustomPatterns(value: unknown): CustomPatternProblem[] {
  const { rules, problems } = compileCustomPatterns(value);
  customValue = value;
  engine = new RedactionEngine([...BUILTIN_RULES, ...rules]);
  return problems;
}

/** The value last given to `setCustomPatterns` (to restore it). */
export function customPatterns(): unknown {
  return customValue;
}

/** The rules in force (built-in, then the user's), in priority order. */
export function activeRules(): readonly SecretRule[] {
  return engine.ruleList;
}

/** Replaces spans (overlaps merged; the higher-priority rule names a shared range) and counts them. */
function applySpans(text: string, spans: Span[]): RedactionResult {
  const counts: RedactionCounts = {};
  if (spans.length === 0) return { text, counts };
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.priority - b.priority);
  let out = '';
  let pos = 0;
  for (const s of spans) {
    if (s.end <= pos) continue; // inside a span already redacted
    // Overlapping the last one: one marker covers both (the earlier span names it).
    if (s.start < pos && out !== '') {
      pos = s.end;
      continue;
    }
    out += text.slice(pos, s.start) + `[REDACTED:${s.kind}]`;
    pos = s.end;
    counts[s.kind] = (counts[s.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(pos), counts };
}

/** Adds `b`'s counts into `a`. */
export function addCounts(a: RedactionCounts, b: RedactionCounts): RedactionCounts {
  for (const [k, v] of Object.entries(b)) a[k] = (a[k] ?? 0) + v;
  return a;
}

/** Where the rules find secrets in `text`: for choosing cuts no secret straddles. */
export function findSecretSpans(text: string): Span[] {
  return engine.scan(text);
}

/**
 * Redacts secrets in complete text. Callers that stream must pass whole lines (a token never spans a
 * line) and hold back an unterminated private key block until its END line (see `PRIVATE_KEY_BEGIN`).
 * `prefilter: false` runs every rule on every line (slow; the reference the prefilter is tested against).
 * Async for callers written against an engine that loaded lazily; the work is synchronous.
 */
export async function redactSecrets(text: string, options: { prefilter?: boolean } = {}): Promise<RedactionResult> {
  return redactSecretsSync(text, options);
}

/** `redactSecrets` without the promise, for callers that cannot await. */
export function redactSecretsSync(text: string, options: { prefilter?: boolean } = {}): RedactionResult {
  if (text === '') return { text, counts: {} };
  return applySpans(text, engine.scan(text, { all: options.prefilter === false }));
}

/**
 * How far past a cut `clipRedacted` reads, so a secret straddling the cut is still whole (a PEM key fits);
 * `secretSafeSlice` looks this far either side of its window.
 */
export const CLIP_MARGIN = 8192;

/**
 * `text` redacted, read far enough past `max` that CLIP_MARGIN characters follow the cut once redacted
 * (redactions shorten it), or whole: then no secret straddling the cut was cut by the read itself.
 */
function redactedWindow(text: string, max: number): string {
  for (let margin = CLIP_MARGIN; ; margin *= 2) {
    const read = text.slice(0, max + margin);
    const window = redactSecretsSync(read).text;
    if (read.length === text.length || window.length >= max + CLIP_MARGIN) return window;
  }
}

/**
 * At most `max` characters of `text`, redacted. Redaction runs before the cut: cut first, the tail of
 * a token (`ghp_` and 30 of its 36 characters) no longer matches its rule and would reach disk as it is.
 * A cut never splits a `[REDACTED:…]` marker.
 */
export function clipRedacted(text: string, max: number): string {
  const window = redactedWindow(text, max);
  let cut = Math.min(max, window.length);
  const open = window.lastIndexOf('[REDACTED:', cut - 1);
  if (open !== -1 && window.indexOf(']', open) >= cut) cut = open;
  return window.slice(0, cut);
}

/**
 * The last `max` characters of `text` (or fewer), redacted before the cut, as `clipRedacted` from the
 * other end: cut first, a token's end (`…Bc5Hd9Jk3Ws7Ye1Ua4Gf`) no longer matches its rule. A cut never
 * splits a `[REDACTED:…]` marker.
 */
export function tailRedacted(text: string, max: number): string {
  const window = redactSecretsSync(text.slice(-(max + CLIP_MARGIN))).text;
  let cut = Math.max(0, window.length - max);
  const open = window.lastIndexOf('[REDACTED:', cut - 1);
  const close = open === -1 ? -1 : window.indexOf(']', open);
  if (open !== -1 && close >= cut) cut = close + 1;
  return window.slice(cut);
}

/**
 * The largest cut at or before `max` that no secret straddles, for text cut now and redacted later
 * (a long line shown to the agent, then stored): cut through a token, its head would not be found.
 */
export function secretSafeCut(text: string, max: number): number {
  if (text.length <= max) return text.length;
  return cutOutside(engine.scan(text.slice(0, max + CLIP_MARGIN)), max);
}

/**
 * `text[from, to)` widened or narrowed so that no secret straddles either end, for a window cut out of
 * a long line around position `keep` (a grep match): cut through a token, its head or its tail would not
 * be found when the window is redacted. A secret at an end is left out, unless that would leave `keep`
 * out too; then it is taken whole.
 */
export function secretSafeSlice(text: string, from: number, to: number, keep: number): [number, number] {
  const lo = Math.max(0, from - CLIP_MARGIN);
  const spans = engine
    .scan(text.slice(lo, Math.min(text.length, to + CLIP_MARGIN)))
    .map((s) => ({ matchStart: s.matchStart + lo, matchEnd: s.matchEnd + lo }));
  const straddling = (at: number) => spans.find((s) => s.matchStart < at && s.matchEnd > at);
  // Each end moves one way only (overlapping matches could otherwise send it back and forth).
  let s = straddling(from);
  for (; s && s.matchEnd <= keep; s = straddling(from)) from = s.matchEnd;
  for (; s; s = straddling(from)) from = s.matchStart;
  s = straddling(to);
  for (; s && s.matchStart > keep; s = straddling(to)) to = s.matchStart;
  for (; s; s = straddling(to)) to = s.matchEnd;
  return [from, Math.max(from, to)];
}

/** `cut`, moved back before every secret match (of `spans`) that straddles it. */
export function cutOutside(spans: readonly Span[], cut: number): number {
  for (let moved = true; moved;) {
    moved = false;
    for (const s of spans)
      if (s.matchStart < cut && s.matchEnd > cut) {
        cut = s.matchStart;
        moved = true;
      }
  }
  return cut;
}
