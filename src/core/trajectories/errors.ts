// An import failure that names the file and says what is wrong with it, plus the short group it belongs
// to, so that a folder scan can report `12 files: not an agent log (Markdown without Aider headers)`.

export class TrajectoryError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    /** The kind of problem, without file-specific detail (line numbers, keys): what skipped files are grouped by. */
    readonly group: string = reason,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'TrajectoryError';
  }
}

/** Thrown by readers and importers; the loader attaches the file name. */
export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    message: string,
    readonly group?: string,
  ) {
    super(message);
  }
}

/** Fails the current file. `group` is the short kind shown when skipped files are grouped (default: the reason). */
export function fail(reason: string, group?: string): never {
  throw new FormatError(reason, group);
}

/** Text from a file, safe to print: control characters are shown as escapes, long text is cut. */
export function printable(text: string, max = 80): string {
  const s = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
