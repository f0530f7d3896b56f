// Typed errors the UI can show as they are: the message says what was refused and why.

/** Why a reference to a stored file was refused. */
export type ReferenceProblem =
  'empty' | 'invalid' | 'traversal' | 'outside' | 'symlink-escape' | 'not-found' | 'not-a-file';

/** A reference (from a placeholder, a link, a tool call or the CLI) that does not name a file inside the store. */
export class StoreReferenceError extends Error {
  override readonly name = 'StoreReferenceError';
  constructor(
    /** The reference exactly as it was given. */
    readonly reference: string,
    readonly problem: ReferenceProblem,
    message: string,
  ) {
    super(message);
  }
}

/** A record or file that could not be written; nothing already on disk was changed. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
