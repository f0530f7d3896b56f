// Secret redaction before anything reaches disk. Two layers: our rule table (rules/*.ts: 100+ formats
// from gitleaks' and trufflehog's coverage, as data, run by engine.ts) and, behind it, secretlint's
// maintained recommended preset for what our table might miss.
import type { SecretLintCoreConfig } from '@secretlint/types';
import { compileCustomPatterns, type CustomPatternProblem } from './custom-patterns';
import { asciiView, RedactionEngine, type Span } from './engine';
import { SECRETLINT_KEYWORDS, suspectView, toOriginal } from './prefilter';
import { BUILTIN_RULES, type SecretRule } from './rules/index';

/** Counts of redacted secrets by rule id (e.g. `github-token`, `url-password`, `private-key`). */
export type RedactionCounts = Record<string, number>;

export interface RedactionResult {
  text: string;
  counts: RedactionCounts;
}

/** The start of a private key whose end has not arrived yet (streaming callers hold the text back). */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;

let engine = new RedactionEngine(BUILTIN_RULES, SECRETLINT_KEYWORDS);
let customValue: unknown = [];

/**
 * Sets the user's own patterns (see custom-patterns.ts) on top of the built-in rules, for every later
 * redaction in this process. Returns what was skipped and why; valid entries apply either way.
 */
export function setCustomPatterns(value: unknown): CustomPatternProblem[] {
  const { rules, problems } = compileCustomPatterns(value);
  customValue = value;
  engine = new RedactionEngine([...BUILTIN_RULES, ...rules], SECRETLINT_KEYWORDS);
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

type LintSource = typeof import('@secretlint/core').lintSource;
let loaded: Promise<{ lintSource: LintSource; config: SecretLintCoreConfig }> | undefined;

// secretlint is ESM: import it lazily so loading the store (and bundling to CJS) does not pay for it up front.
function loadSecretlint(): Promise<{ lintSource: LintSource; config: SecretLintCoreConfig }> {
  loaded ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]).then(
    ([core, preset]) => ({
      lintSource: core.lintSource,
      config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] },
    }),
  );
  return loaded;
}

/** secretlint's `GITHUB_TOKEN` becomes `github-token`, like our own rule ids. */
function kindOf(ruleId: string, messageId: string | undefined): string {
  return (messageId ?? ruleId.replace(/^@secretlint\/secretlint-rule-/, '')).toLowerCase().replace(/_/g, '-');
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
    const start = Math.max(s.start, pos);
    out += text.slice(pos, start) + `[REDACTED:${s.kind}]`;
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

/** Where our own rules find secrets in `text` (secretlint's layer not included): for choosing safe cuts. */
export function findSecretSpans(text: string): Span[] {
  return engine.scan(text).spans;
}

/**
 * Redacts secrets in complete text. Callers that stream must pass whole lines (a token never spans a
 * line) and hold back an unterminated private key block until its END line (see `PRIVATE_KEY_BEGIN`).
 * `prefilter: false` runs every rule on every line (slow; the reference the prefilter is tested against).
 */
export async function redactSecrets(text: string, options: { prefilter?: boolean } = {}): Promise<RedactionResult> {
  if (text === '') return { text, counts: {} };
  const all = options.prefilter === false;
  const found = engine.scan(text, { all });
  const first = applySpans(text, found.spans);
  if (!found.secretlint) return first;
  // Only lines holding a literal some preset rule needs go through secretlint (see prefilter.ts).
  const suspects = all ? { view: first.text, pieces: [] } : suspectView(first.text);
  if (suspects.view === '') return first;
  const { lintSource, config } = await loadSecretlint();
  const result = await lintSource({
    // An empty filePath keeps the GCP rule from trying to read a .p12 file from disk on every call.
    // Output must not be able to switch redaction off with secretlint's own disable comments.
    source: {
      content: asciiView(suspects.view).replace(/secretlint-(?=disable|enable)/gi, 'xxxxxxxxxx-'),
      filePath: '',
      ext: '.txt',
      contentType: 'text',
    },
    options: { config, noPhysicFilePath: true },
  });
  const map = (o: number): number => (suspects.pieces.length === 0 ? o : toOriginal(suspects, o));
  const spans = result.messages
    .map((m) => ({
      start: map(m.range[0]),
      end: map(m.range[1] - 1) + 1,
      kind: kindOf(m.ruleId, m.messageId),
      priority: Number.MAX_SAFE_INTEGER,
    }))
    // A connection string whose password we redacted is no secret any more: keep its host readable.
    .filter((s) => !first.text.slice(s.start, s.end).includes('[REDACTED:'));
  const second = applySpans(first.text, spans);
  return { text: second.text, counts: addCounts(first.counts, second.counts) };
}
