// A ready-made script for the scripted model server: a task solved in 16+ turns with tool calls
// (list_dir, read_file, grep, tail, run_command), then a final answer. Plain JSON, so e2e tests can write
// it to a file for the standalone server:
//   tsx test/support/long-task-script.ts --out script.json [--turns 18] [--no-commands]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ReplyStep, ScriptToolCall } from './scripted-model-server';

export interface LongTaskOptions {
  /** Tool-calling turns before the final answer (at least 16). */
  turns?: number;
  /** Files the agent reads (workspace-relative); defaults fit test/fixtures/workspace. */
  files?: string[];
  /** A pattern that exists in the files. */
  pattern?: string;
  /** A command that prints a long output; omit run_command steps with `null`. */
  command?: string | null;
  /** Final answer text. */
  answer?: string;
  /** Delay between streamed chunks, so a UI can watch the stream (and Stop can land mid-stream). */
  chunkDelayMs?: number;
}

export const LONG_TASK_ANSWER = 'The build warning comes from src/module_42.c:17 (unused variable tmp). Task complete.';

export function longTaskScript(o: LongTaskOptions = {}): ReplyStep[] {
  const turns = o.turns ?? 18;
  if (!Number.isInteger(turns) || turns < 16) throw new RangeError(`turns must be an integer >= 16 (got ${turns})`);
  const files = o.files ?? ['README.md', 'src/greet.py', 'build-log.sh'];
  if (files.length === 0) throw new RangeError('files must name at least one file');
  const pattern = o.pattern ?? 'def |echo';
  const command = o.command === undefined ? 'bash build-log.sh' : o.command;
  const cycle: ((k: number) => { text: string; call: ScriptToolCall })[] = [
    () => ({ text: 'Let me look at the workspace.', call: { name: 'list_dir', arguments: { path: '.' } } }),
    (k) => ({
      text: `Reading ${files[k % files.length]}.`,
      call: { name: 'read_file', arguments: { path: files[k % files.length] } },
    }),
    () => ({ text: 'Searching for definitions.', call: { name: 'grep', arguments: { pattern, path: '.' } } }),
    (k) =>
      command === null
        ? {
            text: `Reading ${files[(k + 1) % files.length]} again.`,
            call: { name: 'read_file', arguments: { path: files[(k + 1) % files.length], offset: 1, limit: 20 } },
          }
        : { text: 'Running the build to see its output.', call: { name: 'run_command', arguments: { command } } },
    (k) => ({
      text: 'Checking the end of the file.',
      call: { name: 'tail', arguments: { path: files[k % files.length], lines: 10 } },
    }),
  ];
  const steps: ReplyStep[] = [];
  for (let k = 0; k < turns; k++) {
    const { text, call } = cycle[k % cycle.length]!(k);
    steps.push({
      reply: { text: `Step ${k + 1}: ${text}`, toolCalls: [{ ...call, id: `call_${k + 1}` }] },
      ...(o.chunkDelayMs ? { chunkDelayMs: o.chunkDelayMs } : {}),
    });
  }
  steps.push({
    reply: { text: o.answer ?? LONG_TASK_ANSWER },
    ...(o.chunkDelayMs ? { chunkDelayMs: o.chunkDelayMs } : {}),
  });
  return steps;
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      turns: { type: 'string' },
      'no-commands': { type: 'boolean' },
      'chunk-delay-ms': { type: 'string' },
    },
  });
  if (!values.out) {
    console.error(
      'usage: tsx test/support/long-task-script.ts --out FILE.json [--turns N] [--no-commands] [--chunk-delay-ms N]',
    );
    process.exit(2);
  }
  try {
    const steps = longTaskScript({
      ...(values.turns !== undefined ? { turns: Number(values.turns) } : {}),
      ...(values['no-commands'] ? { command: null } : {}),
      ...(values['chunk-delay-ms'] !== undefined ? { chunkDelayMs: Number(values['chunk-delay-ms']) } : {}),
    });
    writeFileSync(values.out, JSON.stringify({ steps }, null, 2));
    console.log(`wrote ${steps.length} steps to ${values.out}`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
