// Runs the CLI's main() in-process with captured output, for tests.
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * `cwd`: the working directory for this run (commands that default to the current folder); the process's
 * own is restored afterwards, so runs of one file must not overlap (node:test runs a file's tests in turn).
 */
export async function runCli(
  argv: string[],
  options: { signal?: AbortSignal; cwd?: string; stdin?: NodeJS.ReadableStream; tty?: boolean } = {},
): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const previous = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    const code = await main(argv, {
      stdout,
      stderr,
      signal: options.signal ?? new AbortController().signal,
      ...(options.stdin ? { stdin: options.stdin } : {}),
      ...(options.tty ? { stdoutIsTTY: true } : {}),
    });
    return { code, out, err };
  } finally {
    process.chdir(previous);
  }
}
