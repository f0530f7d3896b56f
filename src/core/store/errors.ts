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
  override readonly name: string = 'StoreWriteError';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A write, rename or delete under the store met a symbolic link (the target itself or a folder on the
 * way to it). Nothing was written or deleted through it. `path` is the link.
 */
export class StoreSymlinkError extends StoreWriteError {
  override readonly name = 'StoreSymlinkError';
  constructor(
    /** The symbolic link that was found. */
    readonly link: string,
    /** What the operation was about to do (`write`, `append`, `rename`, `delete`, `create folder`). */
    readonly operation: string,
  ) {
    super(
      link,
      `Refused to ${operation} through the symbolic link ${link}: Context Desk never follows links inside its folder. Remove the link (it may have come with a cloned repository).`,
    );
  }
}

/**
 * A file under the store that has another name elsewhere (a hard link): appending to it would write
 * into that other file, which may lie outside the workspace (`ln ~/.bashrc .context-desk/history/x.jsonl`
 * by a command). Nothing was written. `link` is the path under the store.
 */
export class StoreHardLinkError extends StoreWriteError {
  override readonly name = 'StoreHardLinkError';
  constructor(
    readonly link: string,
    /** How many names the file has. */
    readonly names: number,
  ) {
    super(
      link,
      `Refused to append to ${link}: the file has ${names} names (a hard link), so writing to it would change a file elsewhere. Context Desk never writes into a file with another name. Delete ${link} (the other names keep their content).`,
    );
  }
}

/** A path given to the store writer that is not inside the store, or a store root that moved since it was opened. */
export class StoreBoundaryError extends StoreWriteError {
  override readonly name = 'StoreBoundaryError';
}

/**
 * The configured store folder cannot be used: it is the workspace root or one of its ancestors, it is
 * outside the workspace without the user's own (user-settings) consent, it is a link, or it is an
 * existing folder that is not a Context Desk store. The message says how to fix it.
 */
export class StoreFolderError extends StoreWriteError {
  override readonly name = 'StoreFolderError';
}
