// Secret redaction before anything reaches disk: secretlint's maintained recommended rule set, plus
// our own rules for what must never slip through its "looks like a placeholder" heuristics
// (passwords in URLs, any PEM private key block, AWS access key ids).
import type { SecretLintCoreConfig } from '@secretlint/types';
import { suspectView, toOriginal } from './prefilter';

/** Counts of redacted secrets by kind (e.g. `GITHUB_TOKEN`, `url-password`, `private-key`). */
export type RedactionCounts = Record<string, number>;

export interface RedactionResult {
  text: string;
  counts: RedactionCounts;
}

interface Span {
  start: number;
  end: number;
  kind: string;
}

const URL_PASSWORD = /\b([a-zA-Z][a-zA-Z0-9+.-]{1,30}):\/\/([^\s:/@'"<>]{1,256}):([^\s@/'"<>]{1,256})@/g;
const PRIVATE_KEY_BLOCK =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
/** The start of a private key whose end has not arrived yet (streaming callers hold the text back). */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
const AWS_ACCESS_KEY_ID = /\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g;

function ownRules(text: string): Span[] {
  const spans: Span[] = [];
  if (text.includes('://'))
    for (const m of text.matchAll(URL_PASSWORD)) {
      const start = m.index + m[1]!.length + 3 + m[2]!.length + 1;
      spans.push({ start, end: start + m[3]!.length, kind: 'url-password' });
    }
  if (text.includes('PRIVATE KEY'))
    for (const m of text.matchAll(PRIVATE_KEY_BLOCK))
      spans.push({ start: m.index, end: m.index + m[0].length, kind: 'private-key' });
  for (const m of text.matchAll(AWS_ACCESS_KEY_ID))
    spans.push({ start: m.index, end: m.index + m[0].length, kind: 'aws-access-key-id' });
  return spans;
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

function kindOf(ruleId: string, messageId: string | undefined): string {
  return messageId ?? ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** Replaces spans (overlaps merged) with `[REDACTED:<kind>]` and counts them. */
function applySpans(text: string, spans: Span[]): RedactionResult {
  const counts: RedactionCounts = {};
  if (spans.length === 0) return { text, counts };
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
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

/**
 * The text with every non-ASCII UTF-16 unit replaced by DEL (0x7f). Same length, so match ranges map
 * back 1:1; DEL is, like any non-ASCII character, neither a word character nor whitespace, so no rule
 * (all match ASCII token shapes) matches differently. Why: V8 runs the rule set's regexes ~5x slower on
 * two-byte strings, and one emoji or check mark in a 64 KB batch makes the whole string two-byte.
 */
function asciiView(text: string): string {
  const ascii = /[^\x00-\x7f]/.test(text) ? text.replace(/[^\x00-\x7f]/g, '\x7f') : text;
  // Output must not be able to switch redaction off with secretlint's own disable comments.
  return ascii.replace(/secretlint-(?=disable|enable)/gi, 'xxxxxxxxxx-');
}

/** Adds `b`'s counts into `a`. */
export function addCounts(a: RedactionCounts, b: RedactionCounts): RedactionCounts {
  for (const [k, v] of Object.entries(b)) a[k] = (a[k] ?? 0) + v;
  return a;
}

/**
 * Redacts secrets in complete text. Callers that stream must pass whole lines (a token never spans a
 * line) and hold back an unterminated private key block until its END line (see `PRIVATE_KEY_BEGIN`).
 */
export async function redactSecrets(text: string, options: { prefilter?: boolean } = {}): Promise<RedactionResult> {
  const own = ownRules(asciiView(text));
  // Redact our spans first so secretlint's URL rule does not double-count the same password.
  const first = applySpans(text, own);
  // Only lines holding a literal some preset rule needs go through secretlint (see prefilter.ts).
  const suspects = options.prefilter === false ? { view: first.text, pieces: [] } : suspectView(first.text);
  if (suspects.view === '') return first;
  const { lintSource, config } = await loadSecretlint();
  const result = await lintSource({
    // An empty filePath keeps the GCP rule from trying to read a .p12 file from disk on every call.
    source: { content: asciiView(suspects.view), filePath: '', ext: '.txt', contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  const map = (o: number): number => (suspects.pieces.length === 0 ? o : toOriginal(suspects, o));
  const spans = result.messages.map((m) => ({
    start: map(m.range[0]),
    end: map(m.range[1] - 1) + 1,
    kind: kindOf(m.ruleId, m.messageId),
  }));
  const second = applySpans(first.text, spans);
  return { text: second.text, counts: addCounts(first.counts, second.counts) };
}
