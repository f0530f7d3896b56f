// The folders a command line changes to, read from its text before it runs: each is entered by the
// agent terminal's shell, whose direnv or mise hook then runs what that folder holds (entered-folder.ts).
// A change whose folder only the shell can work out (`cd "$(git rev-parse --show-toplevel)"`, `cd $DIR`,
// `cd -`, `popd`, anything `eval` runs, a script `source` runs in the shell, a `cd` under a CDPATH the
// line sets) is kept apart, so the approval can say it was not looked in.
import * as os from 'node:os';
import * as path from 'node:path';
import { programIndex, simpleCommands, type ShellWord } from './shell-words';

/**
 * Commands that change folder (zsh's `chdir`, PowerShell's `Set-Location` and `Push-Location`, any case
 * as cmd and PowerShell take it). zsh's direnv hook runs on the change itself, bash's at the next
 * prompt: either way the folder is entered.
 */
const CHANGES = new Set(['cd', 'pushd', 'popd', 'chdir', 'set-location', 'push-location', 'pop-location']);

/** Options of a change before its folder word (`-P`, `-L`, `-LiteralPath`, cmd's `/d`). */
const OPTION = /^(?:-[A-Za-z@]+|\/d)$/i;

/** Commands that set variables named by their arguments (`export CDPATH=x`). */
const SETTERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/** A folder word CDPATH applies to: not absolute and not starting with `.` or `..` (as bash has it). */
const viaCdpath = (word: string): boolean => !/^(?:\/|\.\.?(?:\/|$))/.test(word);

/** The line sets CDPATH: `cd api` may then enter `$CDPATH/api` rather than `./api`. */
function setsCdpath(words: ShellWord[], at: number): boolean {
  const sets = (w: ShellWord): boolean => w.text.startsWith('CDPATH=') || w.text.startsWith('CDPATH+=');
  return words.slice(0, at).some(sets) || (SETTERS.has(words[at]?.text ?? '') && words.slice(at + 1).some(sets));
}

export interface FolderChanges {
  /** Folders the line changes to, as written (quotes removed; `~` made the home folder). */
  known: string[];
  /** How the line changes to folders that cannot be known before it runs, as written (`cd $DIR`). */
  unknown: string[];
}

/** A folder word a shell would expand (`$`, a backtick, `~user`, a glob), or one of the folder stack. */
function expanded(word: ShellWord): boolean {
  return /[$`*?[]/.test(word.raw) || /^~[^/]|^[-+]\d*$/.test(word.text);
}

/** Reads `command`'s changes of folder; see FolderChanges. */
export function folderChanges(command: string): FolderChanges {
  const known: string[] = [];
  const unknown: string[] = [];
  const commands = simpleCommands(command).map((c) => ({ words: c.words, at: programIndex(c.words) }));
  const cdpath = commands.some((c) => setsCdpath(c.words, c.at));
  for (const { words, at } of commands) {
    // `builtin cd` and `command cd` are cd too.
    const start = words[at]?.text === 'builtin' || words[at]?.text === 'command' ? at + 1 : at;
    const [first, ...rest] = words.slice(start);
    const verb = first?.text.toLowerCase() ?? '';
    if (verb === 'source' || verb === '.' || verb === 'eval') {
      // A sourced script runs in the agent's shell itself, so a `cd` in it enters a folder the line does
      // not show; what `eval` runs is a command line made when it runs.
      if (verb === 'eval' || rest.length > 0)
        unknown.push(
          words
            .slice(start)
            .map((w) => w.raw)
            .join(' '),
        );
      continue;
    }
    if (!CHANGES.has(verb)) continue;
    let i = 0;
    while (i < rest.length && OPTION.test(rest[i]!.text)) i++;
    if (rest[i]?.text === '--') i++;
    const folder = rest[i];
    const written = folder === undefined ? first!.raw : `${first!.raw} ${folder.raw}`;
    const word = folder?.text;
    // `cd` alone goes home; `pushd` alone swaps the top two folders of the stack, `popd` returns to one.
    if (word === undefined && (verb === 'cd' || verb === 'chdir')) known.push(os.homedir());
    else if (word === undefined || verb.startsWith('pop') || expanded(folder!)) unknown.push(written);
    else if (cdpath && (verb === 'cd' || verb === 'pushd') && viaCdpath(word)) unknown.push(`${written} (CDPATH)`);
    else known.push(word === '~' || word.startsWith('~/') ? path.join(os.homedir(), word.slice(1)) : word);
  }
  return { known, unknown };
}

/** The folders a command line changes to that can be known before it runs (see folderChanges). */
export function foldersChangedTo(command: string): string[] {
  return folderChanges(command).known;
}
