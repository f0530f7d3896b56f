// PowerShell in VS Code's terminal, as recorded bytes (pwsh is not installed where tests run): its shell
// integration script writes OSC 633 markers (ended by BEL, or by ST `ESC \`), with `\x5c` for `\` and
// `\x3b` for `;` in values, and Windows' ConPTY adds cursor hiding, erase-in-line and absolute moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { parseTerminalLog } from '../../../src/core/store/terminal-log-reader';
import { tempDir } from './helpers';

const E = '\x1b';
const BEL = '\x07';
const ST = `${E}\\`;

/** The output lines the log keeps for each recorded command, as rendered and read back. */
async function logged(t: Parameters<typeof tempDir>[0], outputs: string[]): Promise<string[][]> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await TerminalLogWriter.open(store, { terminalName: 'pwsh', terminalId: 'p1' });
  for (const raw of outputs) {
    const cap = await w.begin({ command: 'x' });
    await cap.push(Buffer.from(raw));
    await cap.end({ exitCode: 0 });
  }
  await w.close();
  return parseTerminalLog(await fsp.readFile(w.path, 'utf8')).executions.map((e) => e.output);
}

test("pwsh's shell integration markers and ConPTY's redraws leave the text a person saw, no blank line", async (t) => {
  const cwd = `${E}]633;P;Cwd=C:\\x5cUsers\\x5cme\\x3b x${BEL}`;
  const outputs = [
    // Write-Output, markers ended by BEL; the end marker and the next cwd arrive with the output.
    `${E}]633;C${BEL}hello from pwsh\r\n${E}]633;D;0${BEL}${cwd}`,
    // The same ended by ST.
    `${E}]633;C${ST}hello again\r\n${E}]633;D;0${ST}`,
    // Get-ChildItem through ConPTY: cursor hidden, each line erased to its end.
    `${E}[?25l${E}[m\r\n    Directory: C:\\w${E}[K\r\n\r\nMode   Name${E}[K\r\n----   ----${E}[K\r\n-a---  a.txt${E}[K\r\n${E}[?25h${E}]633;D;0${BEL}`,
    // Invoke-WebRequest's progress bar drawn on rows 1-2, redrawn, then erased before the result.
    `${E}[?25l${E}[7m Writing request stream... (100 bytes) ${E}[m${E}[K${E}[1;1H${E}[?25h` +
      `${E}[7m Writing request stream... (900 bytes) ${E}[m${E}[K${E}[1;1H${E}[K` +
      `StatusCode : 200\r\n${E}[0m`,
  ];
  assert.deepEqual(await logged(t, outputs), [
    ['hello from pwsh'],
    ['hello again'],
    ['', '    Directory: C:\\w', '', 'Mode   Name', '----   ----', '-a---  a.txt'],
    ['StatusCode : 200'],
  ]);
});
