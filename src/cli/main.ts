// `context-desk`: the command line for the same core the extension uses.
import { commands } from './commands/index';
import { UsageError, type CliIo } from './command';
import { version } from '../../package.json';

function help(): string {
  const names = Object.keys(commands).sort();
  const lines = [
    `context-desk ${version}: keep a coding agent's context small, cheap and recoverable.`,
    '',
    'Usage: context-desk <command> [options]',
    '       context-desk <command> --help',
    '',
    'Options:',
    '  -h, --help     show this help',
    '  -v, --version  print the version',
  ];
  const width = Math.max(0, ...names.map((n) => n.length));
  if (names.length > 0)
    lines.push('', 'Commands:', ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n]!.summary}`));
  return lines.join('\n') + '\n';
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(help());
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const entry = commands[first];
  if (!entry) {
    io.stderr.write(`context-desk: unknown command '${first}'\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.usage.endsWith('\n') ? command.usage : command.usage + '\n');
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`context-desk ${first}: ${e.message}\n\n${command.usage}\n`);
      return 2;
    }
    throw e;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\nStopping...\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  // A reader that went away (`| head`) ends the command quietly, as it ends rg or grep.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stdoutFd: 1,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderr: process.stderr,
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = controller.signal.aborted ? 130 : code;
    },
    (e: unknown) => {
      process.stderr.write(`context-desk: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
