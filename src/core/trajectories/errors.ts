// An import failure that names the file and says what is wrong with it.

export class TrajectoryError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'TrajectoryError';
  }
}

/** Thrown by format readers; the caller attaches the file name. */
export class FormatError extends Error {
  override name = 'FormatError';
}

export function fail(reason: string): never {
  throw new FormatError(reason);
}
