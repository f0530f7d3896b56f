// `context-desk redact`: the store's redaction engine as a filter, for logs a user wants to share.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { UsageError, type Command, type CliIo } from '../command';
import { SanitizingStream } from '../../core/store/sanitize/pipeline';
import {
  activeRules,
  addCounts,
  customPatterns,
  setCustomPatterns,
  type RedactionCounts,
} from '../../core/store/sanitize/secrets';
import { describeProblems } from '../../core/store/sanitize/custom-patterns';
import { compareText } from '../../core/numbers';

const usage = `Usage: context-desk redact [options] [FILE...]

Writes each FILE (standard input when none is given, or for "-") to standard output with every
secret replaced by [REDACTED:<rule>], using the engine that guards the Context Desk folder: the key
of an assignment and the user and host of a URL stay readable, terminal colour sequences are
removed and progress lines collapsed. Streams, so input of any size works. The number of
redactions per rule goes to standard error.

Options:
  --json             the counts on standard error as one JSON object
  --pattern REGEX    also redact what REGEX matches (repeatable; a named group "secret" limits
                     the redaction to that group, e.g. "ticket=(?<secret>\\w+)")
  --list             list the built-in rules and exit
  -q, --quiet        print no counts

Binary input (a NUL byte, or mostly control bytes) is not written; it is named on standard error.

Exit code: 0 done; 1 an input could not be read or was binary (the others are still written);
2 usage error or invalid --pattern; 130 interrupted.`;

interface InputReport {
  input: string;
  redactions: RedactionCounts;
  binary?: boolean;
  error?: string;
}

async function redactOne(input: string, io: CliIo): Promise<InputReport> {
  const source = input === '-' ? (io.stdin ?? process.stdin) : createReadStream(input);
  let binary = false;
  const stream = new SanitizingStream(
    async (text) => {
      if (binary) return;
      if (!io.stdout.write(text)) await once(io.stdout, 'drain');
    },
    { ansi: 'strip' },
  );
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
      if (io.signal.aborted) break;
      await stream.push(chunk);
      binary = stream.stats.binary;
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'EISDIR' ? 'is a folder' : err.code === 'ENOENT' ? 'no such file' : err.message;
    return { input, redactions: stream.stats.redactions, error: why };
  }
  binary = stream.stats.binary || (await peekBinary(stream));
  const stats = await stream.end();
  return { input, redactions: stats.redactions, ...(stats.binary ? { binary: true } : {}) };
}

/** Short input is only classified at `end`: decide before the binary note could reach stdout. */
async function peekBinary(stream: SanitizingStream): Promise<boolean> {
  await stream.flush();
  return stream.stats.binary;
}

function summary(total: RedactionCounts): string {
  const entries = Object.entries(total).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const n = entries.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return 'context-desk redact: no secrets found';
  return `context-desk redact: ${n} redaction${n === 1 ? '' : 's'}: ${entries.map(([k, c]) => `${k} ${c}`).join(', ')}`;
}

const command: Command = {
  summary: 'redact secrets from files or standard input (the engine that guards the Context Desk folder)',
  usage,
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          json: { type: 'boolean', default: false },
          pattern: { type: 'string', multiple: true, default: [] },
          list: { type: 'boolean', default: false },
          quiet: { type: 'boolean', short: 'q', default: false },
        },
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    const before = customPatterns();
    try {
      const problems = setCustomPatterns(values.pattern);
      if (problems.length > 0) throw new UsageError(describeProblems(problems, '--pattern').join('\n'));
      return await redactAll(values, positionals, io);
    } finally {
      setCustomPatterns(before); // in-process callers (tests) keep their own patterns
    }
  },
};

async function redactAll(
  values: { json: boolean; list: boolean; quiet: boolean },
  positionals: string[],
  io: CliIo,
): Promise<number> {
  if (values.list) {
    const seen = new Set<string>();
    const width = Math.max(...activeRules().map((r) => r.id.length));
    for (const r of activeRules()) {
      io.stdout.write(`${(seen.has(r.id) ? '' : r.id).padEnd(width)}  ${r.title}\n`);
      seen.add(r.id);
    }
    return 0;
  }
  const inputs = positionals.length === 0 ? ['-'] : positionals;
  const reports: InputReport[] = [];
  const total: RedactionCounts = {};
  for (const input of inputs) {
    if (io.signal.aborted) break;
    const r = await redactOne(input, io);
    reports.push(r);
    addCounts(total, r.redactions);
    const name = input === '-' ? 'standard input' : input;
    if (r.error) io.stderr.write(`context-desk redact: ${name}: ${r.error}\n`);
    else if (r.binary) io.stderr.write(`context-desk redact: ${name}: binary, not written\n`);
  }
  if (values.json)
    io.stderr.write(
      JSON.stringify({
        redactions: total,
        total: Object.values(total).reduce((s, c) => s + c, 0),
        inputs: reports,
      }) + '\n',
    );
  else if (!values.quiet) io.stderr.write(summary(total) + '\n');
  if (io.signal.aborted) return 130;
  return reports.some((r) => r.error || r.binary) ? 1 : 0;
}

export default command;
