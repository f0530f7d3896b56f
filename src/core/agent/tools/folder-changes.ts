// The folders a command line changes to, read from its text before it runs: each is entered by the
// agent terminal's shell, whose direnv or mise hook then runs what that folder holds (entered-folder.ts).
// A change whose folder only the shell can work out (`cd "$(git rev-parse --show-toplevel)"`, `cd $DIR`,
// `cd -`, `popd`, anything `eval` runs, a script `source` runs in the shell, a `cd` under a CDPATH the
// line sets) is kept apart, so the approval can say it was not looked in.
import * as os from 'node:os';
import * as path from 'node:path';

// A command's start: the start of the line or after `;`, `&`, `|`, `(`, `{`, `!`, a newline, `then`, `do`,
// `else`; then variable assignments (`X=1 cd a` changes folder too) and `builtin` or `command`.
const START = String.raw`(?:^|[;&|({!\n]|\b(?:then|do|else)\b)[ \t]*(?:[A-Za-z_]\w*=[^\s;&|()]*[ \t]+)*(?:(?:builtin|command)[ \t]+)?`;

// `cd`, `pushd` or `popd` starting a command (zsh's `chdir`, PowerShell's `Set-Location` and
// `Push-Location`, any case as cmd and PowerShell take it), its options (`-P`, `-L`, `--`, `-LiteralPath`,
// cmd's `/d`) and its folder word, on the same line. zsh's direnv hook runs on the change itself, bash's at the next prompt: either way the
// folder is entered.
const CHANGE = new RegExp(
  String.raw`${START}\\?["']?(cd|pushd|popd|chdir|set-location|push-location|pop-location)["']?(?=$|[\s;&|)])(?:[ \t]+(?:(?:-[A-Za-z@]+|/d)[ \t]+)*(?:--[ \t]+)?("[^"\n]*"|'[^'\n]*'|[^\s;&|()]+))?`,
  'gi',
);

/** `eval` as a command: what it runs is a command line made when it runs. */
const EVAL = new RegExp(String.raw`${START}eval(?=$|\s)`);

/**
 * `source x.sh` or `. x.sh`: the file runs in the agent's shell itself, so a `cd` in it enters a folder
 * (and its hooks run) that the line does not show.
 */
const SOURCE = new RegExp(String.raw`${START}(?:source|\.)[ \t]+("[^"\n]*"|'[^'\n]*'|[^\s;&|()]+)`, 'g');

/** The line sets CDPATH: `cd api` may then enter `$CDPATH/api` rather than `./api`. */
const SETS_CDPATH = /(?:^|[\s;&|(`])(?:export[ \t]+|declare[ \t]+-\w+[ \t]+|typeset[ \t]+)?CDPATH=/;

/** A folder word CDPATH applies to: not absolute and not starting with `.` or `..` (as bash has it). */
const viaCdpath = (word: string): boolean => !/^(?:\/|\.\.?(?:\/|$))/.test(word);

export interface FolderChanges {
  /** Folders the line changes to, as written (quotes removed; `~` made the home folder). */
  known: string[];
  /** How the line changes to folders that cannot be known before it runs, as written (`cd $DIR`). */
  unknown: string[];
}

/** A folder word a shell would expand (`$`, a backtick, `~user`, a glob), or one of the folder stack. */
function expanded(word: string): boolean {
  return /[$`*?[]|^~[^/]|^[-+]\d*$/.test(word);
}

/** Reads `command`'s changes of folder; see FolderChanges. */
export function folderChanges(command: string): FolderChanges {
  const known: string[] = [];
  const unknown: string[] = [];
  const cdpath = SETS_CDPATH.test(command);
  for (const m of command.matchAll(CHANGE)) {
    const [, verbWritten, raw] = m;
    const verb = verbWritten!.toLowerCase();
    const written = raw === undefined ? verbWritten! : `${verbWritten!} ${raw}`;
    const word = raw?.replace(/^(["'])(.*)\1$/s, '$2');
    // `cd` alone goes home; `pushd` alone swaps the top two folders of the stack, `popd` returns to one.
    if (word === undefined && (verb === 'cd' || verb === 'chdir')) known.push(os.homedir());
    else if (word === undefined || verb.startsWith('pop') || expanded(word)) unknown.push(written);
    else if (cdpath && (verb === 'cd' || verb === 'pushd') && viaCdpath(word)) unknown.push(`${written} (CDPATH)`);
    else known.push(word === '~' || word.startsWith('~/') ? path.join(os.homedir(), word.slice(1)) : word);
  }
  for (const m of command.matchAll(SOURCE)) unknown.push(m[0].replace(/^[;&|({!\s]+/, '').trim());
  const evaluated = EVAL.exec(command);
  if (evaluated)
    unknown.push(
      command
        .slice(evaluated.index)
        .replace(/^[;&|({!\s]+/, '')
        .split('\n')[0]!,
    );
  return { known, unknown };
}

/** The folders a command line changes to that can be known before it runs (see folderChanges). */
export function foldersChangedTo(command: string): string[] {
  return folderChanges(command).known;
}
