// The user's own redaction patterns (`contextDesk.redaction.patterns`, `context-desk redact --pattern`):
// regex strings or `{ name, pattern }` objects. Invalid entries are reported, never thrown.
import type { SecretRule } from './rules/types';

export interface CustomPatternProblem {
  /** Position in the list. */
  index: number;
  message: string;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Turns the setting's value into rules; `problems` says what was skipped and why. */
export function compileCustomPatterns(value: unknown): { rules: SecretRule[]; problems: CustomPatternProblem[] } {
  const rules: SecretRule[] = [];
  const problems: CustomPatternProblem[] = [];
  if (value === undefined || value === null) return { rules, problems };
  if (!Array.isArray(value)) {
    problems.push({ index: -1, message: 'must be a list of regular expressions or {"name", "pattern"} objects' });
    return { rules, problems };
  }
  value.forEach((entry: unknown, index) => {
    let source: unknown = entry;
    let name = 'custom';
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      const e = entry as Record<string, unknown>;
      source = e.pattern;
      if (e.name !== undefined) {
        if (typeof e.name !== 'string' || !NAME.test(e.name.toLowerCase())) {
          problems.push({ index, message: `name ${JSON.stringify(e.name)} must be 1-40 letters, digits or dashes` });
          return;
        }
        name = e.name.toLowerCase();
      }
    }
    if (typeof source !== 'string' || source === '') {
      problems.push({ index, message: 'needs a non-empty regular expression string ("pattern")' });
      return;
    }
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, 'gd');
    } catch (e) {
      problems.push({
        index,
        message: `invalid regular expression ${JSON.stringify(source)}: ${(e as Error).message}`,
      });
      return;
    }
    if (pattern.test('')) {
      problems.push({
        index,
        message: `${JSON.stringify(source)} matches empty text, so it would redact nothing useful`,
      });
      return;
    }
    rules.push({ id: name, title: `user pattern ${source}`, keywords: [], pattern });
  });
  return { rules, problems };
}

/** One line per problem, for a log, a notification or stderr. */
export function describeProblems(problems: readonly CustomPatternProblem[], setting: string): string[] {
  return problems.map((p) =>
    p.index < 0 ? `${setting} ${p.message}` : `${setting}[${p.index}] ${p.message}; skipped`,
  );
}
