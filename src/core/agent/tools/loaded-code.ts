// Settings in a command line that make the programs it runs load or run other code than they seem to:
// `LD_PRELOAD=./x.so make`, `NODE_OPTIONS="--require ./hook.js" npm test`, `PATH=./bin:$PATH npm test`
// (npm then comes from ./bin), `git -c core.fsmonitor='curl … | sh' status`. All are in the text the
// approval shows, but read as a detail of the command rather than as a program of their own; the
// approval's title names them.
import { isAssignment, programIndex, simpleCommands } from './shell-words';

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
    'GIT_DIR GIT_COMMON_DIR PAGER EDITOR VISUAL LESSOPEN LESSCLOSE MANPAGER MAKEFILES MAKEFLAGS'
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
export const GIT_RUNS =
  /^(?:core\.(?:fsmonitor|sshcommand|pager|editor|hookspath|askpass|gitproxy)|alias\..+|diff\..*\.(?:textconv|command)|diff\.external|merge\..*\.driver|filter\..*\.(?:clean|smudge|process)|protocol\..*\.allow|uploadpack\.packobjectshook|credential\..*helper|credential\.helper|sequence\.editor|gpg\..*program|gpg\.program|pager\..+|include\.path|includeif\..+)$/i;

/**
 * Options that make a program that reads or copies run another program of their value (GTFOBins'
 * "command" entries): each regular expression is tested on the arguments joined by newlines, anchored
 * at a line's start (the `m` flag), so it is one linear pass.
 */
const RUNNER_OPTIONS: Record<string, RegExp> = {
  tar: /^(?:--checkpoint-action=exec|--to-command|--use-compress-program|--rsh-command|--info-script|--new-volume-script|-I|-[a-zA-Z]*F)/m,
  rsync: /^(?:-e|--rsh|--rsync-path)/m,
  ssh: /^(?:-o\s*)?(?:ProxyCommand|LocalCommand|KnownHostsCommand|Match\s+exec)|^-F/im,
  scp: /^(?:-S|-F|-o\s*ProxyCommand)/im,
  sftp: /^(?:-S|-F|-D|-o\s*ProxyCommand)/im,
  zip: /^(?:-TT|--unzip-command)/m,
  man: /^(?:-P|--pager|-H|--html)/m,
};

/** Commands that set variables named by their arguments (`export LD_PRELOAD=x`, `declare -x X=1`). */
const SETTERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** Programs whose `NAME=value` arguments set the environment of what they run (`make LD_PRELOAD=x`). */
const MAKES = /^(?:make|gmake|bmake)$/;
/** git's options before its command that take the next word as their value. */
const GIT_VALUE = /^(?:-C|-c|--git-dir|--work-tree|--namespace|--config-env)$/;
/** git commands with `-u` naming the program run on the other side. */
const GIT_UPLOAD = /^(?:clone|fetch|pull|ls-remote)$/;

/** What one git command line sets or names that runs a program, for the title. */
function gitRuns(args: string[]): string[] {
  const found: string[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const [option, attached] = args[i]!.startsWith('--')
      ? args[i]!.split(/=(.*)/s)
      : [args[i]!.slice(0, 2), args[i]!.slice(2)];
    const value = attached || (GIT_VALUE.test(option!) ? args[++i] : undefined);
    if (value === undefined) continue;
    const key = value.split('=')[0]!;
    if ((option === '-c' || option === '--config-env') && GIT_RUNS.test(key)) found.push(`git's ${key}`);
    else if (option === '--exec-path') found.push("git's --exec-path");
    else if (option === '--git-dir') found.push('GIT_DIR');
  }
  const [verb, ...rest] = args.slice(i);
  // `git config core.fsmonitor '…'` sets it for every later git command in the repository.
  if (verb === 'config') {
    const key = rest.find((a) => !a.startsWith('-'));
    if (key !== undefined && GIT_RUNS.test(key)) found.push(`git's ${key}`);
  }
  // fetch/clone/ls-remote --upload-pack or -u, push --receive-pack, archive --exec, ext:: remotes.
  if (
    rest.some((a) => /^--(?:upload-pack|receive-pack|exec)(?:=|$)/.test(a) || /^ext::/i.test(a)) ||
    (GIT_UPLOAD.test(verb ?? '') && rest.some((a) => /^-u/.test(a)))
  )
    found.push('a git option naming a program');
  return found;
}

/**
 * What sed code in `args` runs: GNU sed's `e` command (`1e curl … | sh`) and the `e` flag of `s///e` run
 * shell commands; a script from a file (`-f x.sed`) may. Read per command of the script (split at `;` and
 * newlines), each from its start: linear in the code.
 */
function sedRuns(args: string[]): string[] {
  const out: string[] = [];
  const scripts: string[] = [];
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    let script: string | undefined;
    if (a === '-e' || a === '--expression') script = args[++i] ?? '';
    else if (a.startsWith('--expression=')) script = a.slice('--expression='.length);
    else if (/^-[nErsuz]*e./.test(a)) script = a.slice(a.indexOf('e') + 1);
    else if (a === '-f' || a === '--file' || a.startsWith('--file=')) {
      const file = a.startsWith('--file=') ? a.slice('--file='.length) : (args[++i] ?? '');
      out.push(`sed code from ${file} (its e command runs commands)`);
      given = true;
    } else if (!a.startsWith('-') && !given) script = a;
    if (script !== undefined) {
      scripts.push(script);
      given = true;
    }
  }
  for (const script of scripts)
    for (const piece of script.split(/[;\n]/)) {
      // An address (`1`, `$`, `/re/`, `1,5`, `!`) then the command letter.
      const command = piece.replace(/^[\s\d$,!~+]*(?:\/[^/]*\/[IM]*[\s,!]*)*/, '');
      const substitute = /^s(.)/.exec(command);
      const flags = substitute ? command.split(substitute[1]!)[3] : undefined;
      if (/^e(?:\s|$)/.test(command) || (flags !== undefined && /^[gpiImMw\d]*e/.test(flags))) {
        out.push('sed code that runs commands (its e command)');
        break;
      }
    }
  return out;
}

/** A PATH value with a folder that is not absolute (`./bin`, `node_modules/.bin`, an empty entry: the current one). */
function relativePath(value: string): boolean {
  return value.split(':').some((entry) => !/^(?:\/|\$|~)/.test(entry));
}

/**
 * What in `command` makes the programs it runs load other code, for its approval's title: `it sets
 * LD_PRELOAD, git's core.fsmonitor: they make the programs it runs load or run other code`, or
 * undefined when it sets none.
 */
export function loadedCodeWarning(command: string): string | undefined {
  // A set: a hostile line may set the same name 100,000 times.
  const found = new Set<string>();
  /** Code the line's programs run that it does not read as code: sed's `e`. */
  const runs = new Set<string>();
  const assigned = (text: string): void => {
    const eq = text.indexOf('=');
    const name = (eq === -1 ? text : text.slice(0, eq)).replace(/\+$/, '');
    if (LOADERS.has(name) || LOADER_PATTERN.test(name)) found.add(name);
    else if (name === 'PATH' && eq !== -1 && relativePath(text.slice(eq + 1)))
      found.add(`PATH (with ${text.slice(eq + 1) || 'an empty entry'})`);
  };
  // Read as the shell reads the line: `echo "LD_PRELOAD=x"` sets nothing; `bash -c 'LD_PRELOAD=x make'` does.
  for (const c of simpleCommands(command)) {
    const at = programIndex(c.words);
    const [program = '', ...args] = c.words.slice(at).map((w) => w.text);
    for (const w of c.words.slice(0, at)) if (isAssignment(w.text)) assigned(w.text);
    const name = program.split('/').pop()!;
    if (SETTERS.has(name)) {
      // `export LD_PRELOAD` exports a value set before (`printf -v`, `read`), so the name is enough.
      for (const a of args) if (isAssignment(a) || /^[A-Za-z_]\w*$/.test(a)) assigned(a);
    } else if (MAKES.test(name)) {
      // On make's command line SHELL is the shell of every recipe (make ignores the environment's).
      for (const a of args)
        if (/^SHELL\+?=/.test(a)) found.add('SHELL (for make)');
        else if (a.startsWith('.SHELLFLAGS')) found.add('.SHELLFLAGS');
        else if (isAssignment(a)) assigned(a);
    } else if (RUNNER_OPTIONS[name]?.test(args.join('\n'))) {
      runs.add(`${name} with an option naming a program`);
    } else if (name === 'go' && args[0] === 'generate') {
      runs.add('go generate: the //go:generate lines of the Go files it reads');
    } else if (name === 'direnv' && args[0] === 'allow') {
      runs.add('direnv allow: the .envrc it allows then runs whenever a shell enters its folder');
    } else if (name === 'mise' && args[0] === 'trust') {
      runs.add('mise trust: the mise config it trusts then runs its hooks whenever a shell enters its folder');
    } else if (name === 'code' && args.some((a) => a.startsWith('--install-extension'))) {
      runs.add('code --install-extension: an extension runs in the editor with its rights');
    } else if (name === 'sed') {
      for (const r of sedRuns(args)) runs.add(r);
    } else if (name === 'git') for (const g of gitRuns(args)) found.add(g);
    else if (name === 'alias') {
      // An alias runs its text where its name is used; a trap runs its code on a signal, before each
      // command (DEBUG) or on exit. Their code is read with the line's (shell-words.ts); here they are named.
      for (const a of args) if (a.includes('=')) found.add(`alias ${a.slice(0, a.indexOf('='))}`);
    } else if (name === 'trap' && args.some((a) => !a.startsWith('-'))) found.add('a trap');
  }
  const named = [...found];
  const ran = [...runs].slice(0, 2);
  const sets =
    named.length === 0
      ? ''
      : `it sets ${named.length > 4 ? `${named.slice(0, 4).join(', ')} and ${named.length - 4} more` : named.join(', ')}: the programs it runs may load or run other code`;
  const code = ran.length === 0 ? '' : `it runs ${ran.join(', ')}`;
  return [sets, code].filter(Boolean).join('; ') || undefined;
}
