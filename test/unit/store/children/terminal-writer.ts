// Child process for terminal log tests: captures executions into a terminal log.
// argv: storeRoot terminalName terminalId executions linesPerExecution (executions 0 = the last one never ends)
import { ContextStore } from '../../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../../src/core/store/terminal-log';

async function main(): Promise<void> {
  const [root, name, id, execArg, linesArg] = process.argv.slice(2);
  const store = await ContextStore.open({ root: root! });
  const w = await TerminalLogWriter.open(store, { terminalName: name!, terminalId: id!, flushIntervalMs: 5 });
  process.stdout.write('ready\n');
  const forever = Number(execArg) === 0;
  for (let e = 0; forever || e < Number(execArg); e++) {
    const cap = await w.begin({ command: `echo ${id} ${e}`, cwd: '/tmp' });
    for (let i = 0; forever || i < Number(linesArg); i++)
      await cap.push(`\x1b[32m${id}\x1b[0m exec ${e} line ${i} ${'z'.repeat(200)}\r\n`);
    await cap.end({ exitCode: e % 3 });
  }
  await w.close();
}
void main();
