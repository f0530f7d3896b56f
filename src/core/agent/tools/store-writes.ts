// A command line that writes into the store (`echo … >> .context-desk/history/s.jsonl`, `cp x
// .context-desk/…`, `ln ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt`, `… | tee .context-desk/…`)
// changes what Context Desk later reads back as its own (a resumed history, a stored output). It is
// not blocked (the user may mean it), but its approval says so, as for a folder that runs code.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { folderChanges } from './folder-changes';
import { containedStoreWarning, placedPaths } from './store-contained';
import { isAssignment, programIndex, simpleCommands, type ShellWord } from './shell-words';

/** Commands that change whatever store path they name (the file itself, or where it is moved from). */
const CHANGES_ANY = new Set(['mv', 'rm', 'unlink', 'shred', 'truncate', 'touch', 'tee', 'mkdir', 'chmod', 'chown']);
/** Commands that write their last argument (or the folder after -t / --target-directory). */
const WRITES_TARGET = new Set(['cp', 'ln', 'install', 'rsync', 'scp']);
/** Shells that run the code fed on their input when given no code or script (`… | sh`, `sh -s`). */
const STDIN_SHELLS = /^(?:sh|bash|zsh|dash|ksh|mksh|ash|fish)$/;
/** Folders a relative target is resolved from: the command's own and the first ones it changes to. */
const MAX_FOLDERS = 32;
/** Commands that set variables named by their arguments (`export D=.context-desk`). */
const SETTERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/**
 * Interpreters and the options their code follows (`python -c`, `node -e`): code that names the store
 * folder may write there, which is not read from its words. awk's program is its first argument.
 */
const INTERPRETERS: [RegExp, RegExp][] = [
  [/^(?:python|pypy)[\d.]*$/, /^-[A-Za-z]*c$/],
  [/^(?:node|nodejs|bun|deno)$/, /^(?:-[A-Za-z]*[ep]|--eval|--print|eval)$/],
  [/^(?:perl|ruby|lua)[\d.]*$/, /^-[A-Za-z]*[eE]$/],
  [/^php[\d.]*$/, /^-[A-Za-z]*r$/],
  [/^(?:Rscript|R)$/, /^-e$/],
  [/^(?:awk|gawk|mawk|nawk)$/, /^[^-]/],
];

/** The words after each variable name the line assigns (`D=.context-desk`, `export D=…`), last one kept. */
function assignments(commands: ShellWord[][]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const words of commands) {
    const at = programIndex(words);
    const setting = SETTERS.has(words[at]?.text ?? '') ? words.slice(at + 1) : [];
    for (const w of [...words.slice(0, at), ...setting])
      if (isAssignment(w.text)) {
        const eq = w.text.indexOf('=');
        vars.set(w.text.slice(0, eq).replace(/\+$/, ''), w.text.slice(eq + 1));
      }
  }
  return vars;
}

/** `word` with the line's own variables (`$D`, `${D}`) put in. */
function withVariables(word: string, vars: Map<string, string>): string {
  return word.replace(
    /\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g,
    (m, a?: string, b?: string) => vars.get(a ?? b!) ?? m,
  );
}

/**
 * git commands that only read: any other run with `-C dir`, `--work-tree` or `--git-dir` changes that
 * folder (`git -C .context-desk checkout .`, `init`, `clean`, `add`).
 */
const GIT_READS = new Set(
  'status log diff show grep ls-files ls-tree rev-parse blame shortlog describe cat-file rev-list show-ref for-each-ref help version var'.split(
    ' ',
  ),
);

/** The folder `env -C dir` / `--chdir` (or sudo's) runs its program in, from the words before it. */
function chdirOf(prefix: string[]): string | undefined {
  let dir: string | undefined;
  for (const [i, w] of prefix.entries())
    if (w === '-C' || w === '-D' || w === '--chdir') dir = prefix[i + 1];
    else if (w.startsWith('--chdir=')) dir = w.slice('--chdir='.length);
  return dir;
}

/** What a git command line writes: its `-C` folder, work tree or git folder unless it only reads; clone/init's folder. */
function gitWrites(args: string[]): string[] {
  const dirs: string[] = [];
  const folders: string[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const [option, attached] = args[i]!.split(/=(.*)/s);
    if (option === '-C') {
      // Each -C is taken from the one before; joined once at the end (joining each time is quadratic).
      const dir = args[++i] ?? '';
      if (path.posix.isAbsolute(dir)) dirs.length = 0;
      dirs.push(dir);
    } else if (option === '--work-tree' || option === '--git-dir') folders.push(attached ?? args[++i] ?? '');
    else if (option === '-c' || option === '--namespace' || option === '--config-env') i++;
  }
  const base = dirs.length > 0 ? path.posix.normalize(dirs.join('/')) : '';
  const [verb = '', ...rest] = args.slice(i);
  const at = (p: string): string => (path.posix.isAbsolute(p) ? p : path.posix.join(base || '.', p));
  const operands = rest.filter((a) => !a.startsWith('-'));
  const out = GIT_READS.has(verb) ? [] : [...(base ? [base] : []), ...folders.map(at)];
  if (/^(?:clone|init)$/.test(verb) && operands.length > 0) out.push(at(operands[operands.length - 1]!));
  // `git checkout x -- .context-desk`: the pathspecs these commands rewrite (or remove) from another commit.
  if (/^(?:checkout|restore|rm|mv|clean|reset)$/.test(verb)) for (const p of operands) out.push(at(p));
  return out;
}

/** The words a command writes into, or undefined when it is not one that writes. */
function written(all: string[]): string[] | undefined {
  const at = programIndex(all.map((text) => ({ text, raw: text })));
  const found = writtenBy(all.slice(at));
  // `env -C .context-desk rm h` removes .context-desk/h.
  const dir = chdirOf(all.slice(0, at));
  return dir === undefined ? found : found?.map((w) => (path.posix.isAbsolute(w) ? w : path.posix.join(dir, w)));
}

/** The words a command (from its program word) writes into, or undefined when it is not one that writes. */
function writtenBy(words: string[]): string[] | undefined {
  const name = path.basename(words[0] ?? '');
  const args = words.slice(1);
  if (
    CHANGES_ANY.has(name) ||
    (/^(?:sed|perl)$/.test(name) && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place')))
  )
    return args;
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (name === 'find') return findWrites(args);
  const operands = args.filter((a) => !a.startsWith('-'));
  if (name === 'git') return gitWrites(args);
  // `patch file`: the file it changes.
  if (name === 'patch') return [...operands.slice(0, 1), ...optionValues(args, /^(?:-o|--output)$/)];
  const outputs = optionValues(args, OUTPUT_OPTIONS[name] ?? /^(?:-o|-O|--output|--output-document)$/);
  if (!WRITES_TARGET.has(name)) return outputs.length > 0 ? outputs : undefined;
  const target = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory'));
  if (target !== -1) return [args[target]!.split('=')[1] ?? args[target + 1] ?? ''];
  return operands.length > 0 ? [operands[operands.length - 1]!] : [];
}

/**
 * Options that name where a program writes (`curl -o x`, `wget -P dir`, `tar -x -C dir`, `unzip -d
 * dir`); for any other program `-o`, `-O`, `--output` (`sort -o x`).
 */
const OUTPUT_OPTIONS: Record<string, RegExp> = {
  wget: /^(?:-O|-P|--output-document|--directory-prefix|-o|--output-file)$/,
  tar: /^(?:-C|--directory)$/,
  unzip: /^(?:-d)$/,
};

/** The values of the options `option` matches: the next word, or after `=` (`--output=x`). */
function optionValues(args: string[], option: RegExp): string[] {
  return args.flatMap((a, i) => {
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq !== -1 && option.test(a.slice(0, eq))) return [a.slice(eq + 1)];
    return option.test(a) && i + 1 < args.length ? [args[i + 1]!] : [];
  });
}

/** What `find` changes: its start folders with `-delete`, and what each `-exec cmd … ;` writes. */
function findWrites(args: string[]): string[] {
  const first = args.findIndex((a) => /^[-(!]/.test(a));
  const starts = first === -1 ? args : args.slice(0, first);
  const out = args.includes('-delete') ? [...starts] : [];
  for (let i = 0; i < args.length; i++)
    if (/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!)) {
      let end = i + 1;
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
      for (const w of writtenBy(args.slice(i + 1, end)) ?? []) out.push(w);
      i = end; // the next -exec starts after this one's end (each word is looked at once)
    }
  return out;
}

/** The interpreter whose code in `words` (from its program word) names `name`, or undefined. */
function interpreterNaming(
  words: string[],
  redirects: string[],
  restNames: () => boolean,
  name: string,
): string | undefined {
  const program = path.basename(words[0] ?? '');
  const option = INTERPRETERS.find(([re]) => re.test(program))?.[1];
  if (option === undefined) return undefined;
  // The code word after each code option (`-c '…'`); awk's program is its first argument itself.
  const awk = option.source === '^[^-]';
  const codes = words
    .map((w, i) => (i > 0 && option.test(w) ? words[awk ? i : i + 1] : undefined))
    .filter((w): w is string => w !== undefined)
    .slice(0, awk ? 1 : undefined);
  // Code fed on stdin by a here-document or here-string (`python3 - <<'EOF'`) is the rest of the line.
  const names =
    codes.some((w) => w.toLowerCase().includes(name)) || (redirects.some((op) => op.startsWith('<<')) && restNames());
  return names ? program : undefined;
}

/**
 * Why the approval of `command`, run in `cwd`, should say it writes into the store at `storeRoot`, or
 * undefined. A word names the store when it resolves into it from `cwd` (or a folder the line changes
 * to) or has the store folder's name as one of its segments (`./.context-desk/x`, `$PWD/.context-desk`),
 * also once the line's own variables are put in (`D=.context-desk; cp x $D/h`). Interpreter code that
 * names the store folder (`python -c "open('.context-desk/…','w')"`) may write there: said as such.
 */
export function storeWriteWarning(command: string, cwd: string, storeRoot: string | undefined): string | undefined {
  if (!storeRoot) return undefined;
  const root = path.resolve(storeRoot).toLowerCase();
  const name = path.basename(root);
  // Each target is resolved from each folder: the folders are deduplicated and capped, or a line of many
  // `cd`s and writes would take time quadratic in its length (a hostile model's line holds the approval).
  const folders = [
    ...new Set([cwd, ...folderChanges(command).known.map((f) => path.resolve(cwd, f))].map((f) => f.toLowerCase())),
  ].slice(0, MAX_FOLDERS);
  const inStore = (word: string): boolean => {
    const w = word.toLowerCase();
    if (w === '') return false;
    if (w.split('/').includes(name)) return true;
    return folders.some((from) => {
      const rel = path.relative(root, path.resolve(from, w));
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  };
  const parsed = simpleCommands(command);
  const commands = parsed.map((c) => c.words);
  const vars = assignments(commands);
  const targets = [
    ...parsed.flatMap((c) => c.redirects.filter((r) => r.op.includes('>')).map((r) => r.target.text)),
    ...commands.flatMap((words) => written(words.map((w) => w.text)) ?? []),
  ];
  // Where copies put their sources (`cp -r x/.context-desk .`): resolved only, as they are not written.
  const resolvesIn = (word: string): boolean =>
    folders.some((from) => {
      const rel = path.relative(root, path.resolve(from, word.toLowerCase()));
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  // Folders looked up on disk for a contents copy (`cp -a x/. .`): a few per line, not one per word.
  let lookups = 0;
  const exists = (p: string): boolean => lookups++ < MAX_FOLDERS && existsSync(p);
  const placed = commands.flatMap((words) => {
    const texts = words.map((w) => w.text);
    return placedPaths(texts.slice(programIndex(words)), cwd, path.basename(path.resolve(storeRoot)), exists);
  });
  const hit = targets.find(inStore) ?? targets.find((t) => inStore(withVariables(t, vars))) ?? placed.find(resolvesIn);
  if (hit !== undefined) {
    const through = inStore(hit) ? '' : ` = ${withVariables(hit, vars)}`;
    return `the line writes into the Context Desk folder (${hit}${through}): history and stored outputs there are read back as Context Desk's own`;
  }
  const contained = containedStoreWarning(parsed, folders, root, command);
  if (contained !== undefined) return contained;
  // Where the store folder's name last appears: the rest of the line from a command names it when after.
  const lastNamed = command.toLowerCase().lastIndexOf(name);
  for (const c of parsed) {
    const at = programIndex(c.words);
    const words = c.words.slice(at).map((w) => w.text);
    // `echo .context-desk/h | xargs rm`: the writer's targets come from its input, which names the store.
    if (lastNamed !== -1 && c.words.slice(0, at).some((w) => w.text === 'xargs') && writtenBy(words) !== undefined)
      return `the line feeds ${path.basename(words[0]!)} through xargs, and names the Context Desk folder (${name}): it may write there, and history and stored outputs there are read back as Context Desk's own`;
    // `echo 'rm .context-desk/h' | sh`: a shell with no code or script runs what it is fed.
    const shell = path.basename(words[0] ?? '');
    const options = words.slice(1).filter((w) => /^-[a-z]+$/i.test(w));
    const fromInput = options.some((w) => w.includes('s')) || words.slice(1).every((w) => w.startsWith('-'));
    if (lastNamed !== -1 && STDIN_SHELLS.test(shell) && fromInput && !options.some((w) => w.includes('c')))
      return `the line runs ${shell} on input, and names the Context Desk folder (${name}): it may write there, and history and stored outputs there are read back as Context Desk's own`;
    const rest = (): boolean => lastNamed >= c.start;
    const program = interpreterNaming(
      words,
      c.redirects.map((r) => r.op),
      rest,
      name,
    );
    if (program !== undefined)
      return `the line runs ${program} code that names the Context Desk folder (${name}): it may write there, and history and stored outputs there are read back as Context Desk's own`;
  }
  return undefined;
}
