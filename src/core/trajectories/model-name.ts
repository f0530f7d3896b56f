// The model a log names for its calls, read from whichever fields the format keeps it in. It picks the
// prompt-cache model replay bills with (core/replay/cache-model.ts), so it is kept short and printable.

const MAX_NAME = 200;

/** The first candidate that is a non-empty string, trimmed and cut to 200 characters. */
export function modelName(...candidates: unknown[]): string | undefined {
  for (const c of candidates) {
    if (typeof c !== 'string') continue;
    const name = c.trim().slice(0, MAX_NAME);
    if (name !== '') return name;
  }
  return undefined;
}

/** The model named by the first record that `pick` finds one in (one pass, stops at the first). */
export function firstModel<T>(records: readonly T[], pick: (r: T) => unknown): string | undefined {
  for (const r of records) {
    const name = modelName(pick(r));
    if (name !== undefined) return name;
  }
  return undefined;
}
