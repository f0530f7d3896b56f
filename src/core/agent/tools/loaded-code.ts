// Settings in a command line that make the programs it runs load or run other code than they seem to:
// `LD_PRELOAD=./x.so make`, `NODE_OPTIONS="--require ./hook.js" npm test`, `PATH=./bin:$PATH npm test`
// (npm then comes from ./bin), `git -c core.fsmonitor='curl … | sh' status`. All are in the text the
// approval shows, but read as a detail of the command rather than as a program of their own; the
// approval's title names them.
import { programIndex, simpleCommands } from './shell-words';

/**
 * Variables that make a program load a library or a script, or run a program, of their value (the
 * shell runs the `$( )` of its prompts: PS4's before each command under `set -x`).
 */
const LOADERS = new Set(
  (
    'LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT DYLD_INSERT_LIBRARIES DYLD_LIBRARY_PATH DYLD_FRAMEWORK_PATH ' +
    'NODE_OPTIONS NODE_PATH BASH_ENV ENV PROMPT_COMMAND PS0 PS1 PS2 PS4 PYTHONPATH PYTHONSTARTUP PYTHONHOME PERL5OPT ' +
    'PERL5LIB RUBYOPT RUBYLIB JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS GIT_SSH GIT_SSH_COMMAND ' +
    'GIT_EXTERNAL_DIFF GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_ASKPASS SSH_ASKPASS GIT_EXEC_PATH ' +
    'GIT_TEMPLATE_DIR GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_CONFIG_PARAMETERS GIT_CONFIG GIT_PROXY_COMMAND ' +
    'GIT_DIR GIT_COMMON_DIR PAGER EDITOR VISUAL LESSOPEN LESSCLOSE MANPAGER'
  ).split(' '),
);
/**
 * `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_0`/`GIT_CONFIG_VALUE_0` set any git setting, as `git -c` does;
 * npm reads its `npm_config_*` settings in any case (`NPM_CONFIG_SCRIPT_SHELL`). `GIT_DIR` (above) makes
 * git take the hooks and `core.fsmonitor` of a repository the workspace ships (`vendor/x.git`).
 */
const LOADER_PATTERN =
  /^(?:GIT_CONFIG_(?:COUNT|KEY_\d+|VALUE_\d+)|DYLD_\w+|npm_config_(?:script_shell|node_options|userconfig|globalconfig|git|shell))$/i;

// git settings that run a program of their value (or change which one runs), set with `git -c`.
const GIT_RUNS =
  /^(?:core\.(?:fsmonitor|sshcommand|pager|editor|hookspath|askpass|gitproxy)|alias\..+|diff\..*\.(?:textconv|command)|diff\.external|merge\..*\.driver|filter\..*\.(?:clean|smudge|process)|protocol\..*\.allow|uploadpack\.packobjectshook|credential\..*helper|credential\.helper|sequence\.editor|gpg\..*program|gpg\.program|pager\..+|include\.path|includeif\..+)$/i;

const WORD = String.raw`("[^"]*"|'[^']*'|[^\s;&|()]*)`;
// `NAME=value` or `NAME+=value` (bash appends: `NODE_OPTIONS+=" --require ./x.js"`).
const ASSIGN = new RegExp(String.raw`(?:^|[\s;&|(\x60])([A-Za-z_]\w*)\+?=${WORD}`, 'g');
const GIT_C = new RegExp(String.raw`\bgit\b[^;&|\n]*?\s(?:-c\s*|--config-env[=\s])${WORD}`, 'g');

// git's options that name a program to run (clone/fetch/pull/ls-remote -u, archive --exec), ext:: remotes.
const GIT_PROGRAM =
  /\bgit\b[^;&|\n]*\s(?:--upload-pack|--receive-pack|--exec)[=\s]|\bgit\b[^;&|\n]*\b(?:clone|fetch|pull|ls-remote)\b[^;&|\n]*\s-u[=\s]|\bext::/;

const unquote = (w: string): string => w.replace(/^(["'])(.*)\1$/s, '$2');

/** A PATH value with a folder that is not absolute (`./bin`, `node_modules/.bin`, an empty entry: the current one). */
function relativePath(value: string): boolean {
  return unquote(value)
    .split(':')
    .some((entry) => !/^(?:\/|\$|~)/.test(entry));
}

/**
 * What in `command` makes the programs it runs load other code, for its approval's title: `it sets
 * LD_PRELOAD, git's core.fsmonitor: they make the programs it runs load or run other code`, or
 * undefined when it sets none.
 */
export function loadedCodeWarning(command: string): string | undefined {
  const found: string[] = [];
  for (const [, name, value] of command.matchAll(ASSIGN)) {
    if (LOADERS.has(name!) || LOADER_PATTERN.test(name!)) found.push(name!);
    else if (name === 'PATH' && relativePath(value ?? ''))
      found.push(`PATH (with ${unquote(value ?? '') || 'an empty entry'})`);
  }
  for (const m of command.matchAll(GIT_C)) {
    const key = unquote(m[1] ?? '').split('=')[0]!;
    if (GIT_RUNS.test(key)) found.push(`git's ${key}`);
  }
  // An alias runs its text where its name is used; a trap runs its code on a signal, before each
  // command (DEBUG) or on exit. Their code is read with the line's (shell-words.ts); here they are named.
  for (const c of simpleCommands(command)) {
    const [program, ...args] = c.words.slice(programIndex(c.words)).map((w) => w.text);
    if (program === 'alias') {
      for (const a of args) if (a.includes('=')) found.push(`alias ${a.slice(0, a.indexOf('='))}`);
    } else if (program === 'trap' && args.some((a) => !a.startsWith('-'))) found.push('a trap');
  }
  // git fetch/clone/ls-remote --upload-pack, archive --exec and ext:: remotes run the program named.
  if (GIT_PROGRAM.test(command)) found.push('a git option naming a program');
  const named = [...new Set(found)];
  if (named.length === 0) return undefined;
  const shown = named.length > 4 ? `${named.slice(0, 4).join(', ')} and ${named.length - 4} more` : named.join(', ');
  return `it sets ${shown}: the programs it runs may load or run other code`;
}
