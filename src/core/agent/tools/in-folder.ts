// The command line the agent terminal runs: the model's command, preceded by a change to the folder
// its approval named. The agent terminal is reused (so what a command sets up stays for the next), and
// its shell is wherever the last command, or the user, left it: without the change, a command approved
// "in <workspace>" would run in that other folder. Tested on real shells.

/** How a shell is told to change folder and stop if it cannot. */
export type ShellSyntax = 'posix' | 'fish' | 'powershell' | 'cmd';

/**
 * The syntax of a shell named as VS Code's `TerminalState.shell` names it ('bash', 'zsh', 'fish',
 * 'pwsh', 'cmd', 'gitbash', …) or by its path (`vscode.env.shell`: '/bin/zsh', 'C:\…\powershell.exe').
 * Anything else is taken for a POSIX shell (bash, zsh, sh, ksh, Git Bash and csh share what is used).
 */
export function shellSyntax(shell: string | undefined): ShellSyntax {
  const name = (shell ?? '')
    .split(/[\\/]/)
    .pop()!
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (name === 'pwsh' || name === 'powershell') return 'powershell';
  if (name === 'fish') return 'fish';
  if (name === 'cmd') return 'cmd';
  return 'posix';
}

/** `command`, run in the absolute folder `cwd` (and not at all if the shell cannot go there). */
export function inFolder(command: string, cwd: string, syntax: ShellSyntax): string {
  switch (syntax) {
    case 'powershell':
      // -LiteralPath: no wildcards ([ ] in a folder name); -ErrorAction Stop ends the line if it fails
      // (Windows PowerShell 5.1 has no &&). PowerShell also takes the typographic single quotes as quotes
      // (escaped: one non-ASCII character makes V8 hold the whole bundle as UTF-16, esbuild.mjs).
      return `Set-Location -LiteralPath '${cwd.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}' -ErrorAction Stop; ${command}`;
    case 'cmd':
      // A Windows path cannot contain a double quote.
      return `cd /d "${cwd}" && ${command}`;
    case 'fish':
      // In fish's single quotes a backslash escapes a quote or a backslash.
      return `cd '${cwd.replace(/[\\']/g, '\\$&')}' && ${command}`;
    case 'posix':
      return `cd '${cwd.replace(/'/g, `'\\''`)}' && ${command}`;
  }
}
