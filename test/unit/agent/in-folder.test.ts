// The agent terminal is reused: each command line first changes to the folder its approval named, so
// it never runs where an earlier command (or the user) left the shell. Checked on the real shells
// installed here (bash and sh always; zsh and fish when present).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { inFolder, shellSyntax } from '../../../src/core/agent/tools/in-folder';

const which = (shell: string): string | undefined =>
  ['/bin', '/usr/bin', '/usr/local/bin'].map((d) => path.join(d, shell)).find((p) => existsSync(p));

/** A shell session: an earlier line moves it elsewhere, then the agent's line runs. */
function session(shellPath: string, lines: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(shellPath, ['-c', lines.join('\n')], { encoding: 'utf8', cwd: tmpdir() });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

for (const shell of ['bash', 'sh', 'zsh', 'fish']) {
  const shellPath = which(shell);
  test(
    `${shell}: a command runs in the folder it was approved for, wherever the shell was left`,
    // CI installs every one of these shells; elsewhere a missing one is skipped.
    { skip: !shellPath && !process.env.CI },
    async (t) => {
      assert.ok(shellPath, `${shell} is not installed`);
      const base = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-infolder-')));
      t.after(() => rm(base, { recursive: true, force: true }));
      // A workspace whose name the shell must not read as code: quotes, backslashes, $(…), spaces.
      const ws = path.join(base, `it\\'s a $(touch pwned) "ws" \\`);
      const victim = path.join(base, 'victim');
      await mkdir(ws);
      await mkdir(victim);
      await writeFile(path.join(victim, 'precious.txt'), 'keep');
      const syntax = shellSyntax(shell);
      const moved = `cd ${JSON.stringify(victim)}`; // what a sourced setup script or the user did earlier
      const r = session(shellPath!, [moved, inFolder('pwd; rm -f -- *.txt', ws, syntax)]);
      assert.equal(r.stdout.trim(), ws, r.stderr);
      assert.deepEqual(await readdir(victim), ['precious.txt'], 'nothing ran in the folder the shell was left in');
      assert.deepEqual(await readdir(base), ['victim', path.basename(ws)].sort(), 'the folder name ran nothing');
      // A folder the shell cannot enter: the command does not run at all (elsewhere).
      const gone = session(shellPath!, [moved, inFolder('rm -f -- *.txt', path.join(base, 'missing'), syntax)]);
      assert.notEqual(gone.stderr, '');
      assert.deepEqual(await readdir(victim), ['precious.txt']);
    },
  );
}

test('each shell VS Code names gets its own syntax; unknown ones are taken for POSIX shells', () => {
  assert.equal(shellSyntax('bash'), 'posix');
  assert.equal(shellSyntax('gitbash'), 'posix');
  assert.equal(shellSyntax('/usr/bin/zsh'), 'posix');
  assert.equal(shellSyntax(undefined), 'posix');
  assert.equal(shellSyntax('/opt/homebrew/bin/fish'), 'fish');
  assert.equal(shellSyntax('pwsh'), 'powershell');
  assert.equal(shellSyntax('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell');
  assert.equal(shellSyntax('C:\\Windows\\System32\\cmd.exe'), 'cmd');
});

test('PowerShell and cmd: the folder is quoted literally and a failed change stops the line', () => {
  assert.equal(
    inFolder('npm test', "C:\\Users\\o'neil\\[ws]", 'powershell'),
    "Set-Location -LiteralPath 'C:\\Users\\o''neil\\[ws]' -ErrorAction Stop; npm test",
  );
  assert.equal(
    inFolder('dir', 'C:\\a\u2019b', 'powershell'),
    "Set-Location -LiteralPath 'C:\\a\u2019\u2019b' -ErrorAction Stop; dir",
    'PowerShell also reads a typographic quote as a quote',
  );
  assert.equal(inFolder('dir', 'C:\\My Work', 'cmd'), 'cd /d "C:\\My Work" && dir');
});
