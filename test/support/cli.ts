// Runs the CLI's main() in-process with captured output, for tests.
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';

export async function runCli(
  argv: string[],
  signal: AbortSignal = new AbortController().signal,
  stdin?: NodeJS.ReadableStream,
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await main(argv, { stdout, stderr, signal, ...(stdin ? { stdin } : {}) });
  return { code, out, err };
}
