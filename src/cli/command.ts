// What every `context-desk` subcommand provides. Each lives in its own module under commands/ and is
// loaded only when it is run, so `--help` stays instant.

export interface CliIo {
  stdout: NodeJS.WritableStream;
  /**
   * The file descriptor behind `stdout` when the process owns it (the real command line, not a test's
   * stream): a command may let a child process write there directly.
   */
  stdoutFd?: number;
  /** `stdout` is a terminal: text from files is shown without the escape sequences it would run. */
  stdoutIsTTY?: boolean;
  stderr: NodeJS.WritableStream;
  /** Standard input (default `process.stdin`), for commands that filter it. */
  stdin?: NodeJS.ReadableStream;
  /** Fires when the user presses Ctrl-C; long commands stop cleanly. */
  signal: AbortSignal;
}

export interface Command {
  /** One line for `context-desk --help`. */
  summary: string;
  /** Full usage text for `context-desk <name> --help`. */
  usage: string;
  /** Returns the process exit code. Throwing a UsageError prints the message plus the usage. */
  run(argv: string[], io: CliIo): Promise<number>;
}

export class UsageError extends Error {}
