// Commands that delete or overwrite a whole folder: when that folder holds the store (the workspace
// root, a folder above it), the store goes with it, though the line never names it: `git clean -fdx`,
// `rm -rf .`, `find . -delete`, `rsync -a --delete x/ .`, `find . | xargs rm`. store-writes.ts asks
// here once the line names no write into the store itself.
import * as path from 'node:path';
import { programIndex, type SimpleCommand } from './shell-words';

/** Programs that change each file they are given (`find . -exec rm {} +`, `… | xargs rm`). */
const FILE_WRITERS = /^(?:rm|unlink|shred|truncate|mv|chmod|chown)$/;

/** Whether `words` (from the program word) change each file given them: FILE_WRITERS, `sed -i`, `perl -pi`. */
function changesFiles(words: string[]): boolean {
  const program = path.basename(words[0] ?? '');
  if (FILE_WRITERS.test(program)) return true;
  return /^(?:sed|perl)$/.test(program) && words.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
}
/** Programs listing a folder's entries, whose output may feed a writer through xargs. */
const LISTERS = /^(?:find|fd|fdfind|ls)$/;

/** Characters a shell expands as a file-name pattern. */
const GLOB = /[*?[]/;

/**
 * Whether the pattern `glob` (`*`, `?`, `[…]` taken as any one character) matches `name`; a leading
 * `.` must be matched by a `.` in the pattern unless `dotglob`. Two pointers, no regular expression:
 * the pattern comes from the model, and is only compared with the store folder's short name.
 */
export function globMatches(glob: string, name: string, dotglob: boolean): boolean {
  if (name.startsWith('.') && !dotglob && !glob.startsWith('.')) return false;
  const p = glob.replace(/\[(?:[^\]]|\](?=[^\]]*\]))*\]/g, '?');
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < name.length) {
    if (i < p.length && (p[i] === '?' || p[i] === name[j])) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      mark = j;
    } else if (star !== -1) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (p[i] === '*') i++;
  return i === p.length;
}

/** The folders `args` (a command's words after its program) deletes or overwrites whole, or []. */
function wholeFolders(program: string, args: string[], git: (args: string[]) => string[]): string[] {
  const options = args.filter((a) => a.startsWith('-'));
  const operands = args.filter((a) => !a.startsWith('-'));
  const short = (letters: RegExp): boolean => options.some((o) => /^-[^-]/.test(o) && letters.test(o));
  if (program === 'rm' && (short(/[rR]/) || options.includes('--recursive'))) return operands;
  if (program === 'find') {
    const first = args.findIndex((a) => /^[-(!]/.test(a));
    const starts = first === -1 ? args : args.slice(0, first);
    // The words of each `-exec … ;` up to its end (each word looked at once).
    let changes = args.includes('-delete');
    for (let i = 0; i < args.length && !changes; i++)
      if (/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!)) {
        let end = i + 1;
        while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
        changes = changesFiles(args.slice(i + 1, end));
        i = end;
      }
    return changes ? (starts.length > 0 ? starts : ['.']) : [];
  }
  if (program === 'rsync' && options.some((o) => /^--(?:delete|del$|remove-source-files)/.test(o)))
    return operands.slice(-1);
  if (program === 'git') return git(args);
  // `chmod -R 000 .`: the mode or owner first; `mv . ../x`: the folders moved away.
  if (/^(?:chmod|chown|chgrp)$/.test(program) && (short(/R/) || options.includes('--recursive')))
    return options.some((o) => o.startsWith('--reference')) ? operands : operands.slice(1);
  if (program === 'mv') return operands.slice(0, -1);
  return [];
}

/** The folder `tar -x` or `unzip` extracts into (`-C dir`, `-d dir`, else the command's own), or undefined. */
function extractedInto(program: string, args: string[]): string | undefined {
  const valueOf = (option: RegExp): string | undefined => {
    let value: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const [o, v] = args[i]!.startsWith('--') ? args[i]!.split(/=(.*)/s) : [args[i]!, undefined];
      if (option.test(o!)) value = v ?? args[i + 1];
    }
    return value;
  };
  if (program === 'tar') {
    // `tar -xf a.tar`, `tar xzf a.tgz` (the old form: its first word without a dash), `--extract`.
    const extracts =
      /^[a-zA-Z]*x/.test(args[0] ?? '') ||
      args.some((a) => /^-[a-zA-Z]*x/.test(a) || a === '--extract' || a === '--get');
    return extracts ? (valueOf(/^(?:-C|--directory)$/) ?? '.') : undefined;
  }
  if (program === 'unzip') {
    if (args.some((a) => /^-[a-zA-Z]*[ltvZ]/.test(a))) return undefined;
    return valueOf(/^-d$/) ?? '.';
  }
  return undefined;
}

/**
 * What a git command line deletes whole: `clean` with -d, -x or -X (not -n) its pathspecs or its
 * folder; `stash -u`/`--all` the whole repository (given as `:/`).
 */
function gitWhole(args: string[]): string[] {
  const dirs: string[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C') dirs.push(args[++i] ?? '');
    else if (/^(?:-c|--namespace|--config-env|--git-dir|--work-tree)$/.test(args[i]!)) i++;
  }
  const [verb, ...rest] = args.slice(i);
  // Each -C is taken from the one before; joined once (joining each time is quadratic in the line).
  const from = dirs.map((d) => path.posix.isAbsolute(d)).lastIndexOf(true);
  const base = path.posix.normalize((from === -1 ? ['.', ...dirs] : dirs.slice(from)).join('/'));
  const options = rest.filter((a) => a.startsWith('-'));
  const operands = rest.filter((a) => !a.startsWith('-'));
  const short = (letters: RegExp): boolean => options.some((o) => /^-[^-]/.test(o) && letters.test(o));
  if (verb === 'clean' && short(/[dxX]/) && !short(/n/) && !options.includes('--dry-run'))
    return operands.length > 0 ? operands.map((p) => (p.startsWith(':/') ? ':/' : path.posix.join(base, p))) : [base];
  if (verb === 'stash' && (short(/[ua]/) || /--(?:all|include-untracked)/.test(options.join(' ')))) return [':/'];
  return [];
}

/**
 * Why `commands` (of one line, run from `folders`) delete or overwrite a folder holding the store at
 * `root`, or undefined. `:/` is the repository: taken as holding the store when the store's own folder
 * is at or above the command's folder.
 */
export function containedStoreWarning(
  commands: SimpleCommand[],
  folders: string[],
  root: string,
  line: string,
): string | undefined {
  const name = path.basename(root);
  const holder = path.dirname(root);
  const dotglob = /dotglob|glob_?dots/i.test(line);
  const above = (outer: string, inner: string): boolean => {
    const rel = path.relative(outer, inner);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const holds = (word: string): boolean =>
    folders.some((from) => {
      if (word === ':/') return above(holder, from);
      const last = path.basename(word);
      if (!GLOB.test(last)) return above(path.resolve(from, word.toLowerCase()), root);
      // `rm -rf .* *`: the pattern's folder holds the store and the pattern matches its name.
      if (GLOB.test(path.dirname(word))) return false;
      return path.resolve(from, path.dirname(word).toLowerCase()) === holder && globMatches(last, name, dotglob);
    });
  const listed: string[] = [];
  for (const c of commands) {
    const at = programIndex(c.words);
    const [program = '', ...args] = c.words.slice(at).map((w) => w.text);
    const base = path.basename(program);
    const into = extractedInto(base, args);
    if (into !== undefined && holds(into))
      return `the line extracts an archive into ${into} (${base}), which holds the Context Desk folder: an archive holding ${name}/ overwrites its history and stored outputs`;
    const whole = wholeFolders(base, args, gitWhole).find(holds);
    if (whole !== undefined)
      return `the line deletes or overwrites ${whole === ':/' ? 'the repository' : whole} (${base}), which holds the Context Desk folder: its history and stored outputs go with it`;
    // `ls` lists a dot-named store only with -a or -A.
    const hidden =
      base === 'ls' && name.startsWith('.') && !args.some((a) => /^-[^-]*[aA]|^--(?:all|almost-all)$/.test(a));
    if (LISTERS.test(base) && !hidden) {
      const first = base === 'find' ? args.findIndex((a) => /^[-(!]/.test(a)) : -1;
      const named =
        base === 'find' ? (first === -1 ? args : args.slice(0, first)) : args.filter((a) => !a.startsWith('-'));
      const starts = named.length > 0 ? named : ['.'];
      const hit = starts.find(holds);
      if (hit !== undefined) listed.push(`${base} ${hit}`);
    }
    if (listed.length > 0 && c.words.slice(0, at).some((w) => w.text === 'xargs') && changesFiles([program, ...args]))
      return `the line feeds ${base} through xargs from ${listed[0]!}, which holds the Context Desk folder: it may change the history and stored outputs there`;
  }
  return undefined;
}

/** Programs that copy or move their sources into their last argument (`cp -r x/.context-desk .`). */
const PLACES = /^(?:cp|mv|rsync|install|ln|scp|ditto)$/;

/**
 * Where a copy or move puts each source inside its target folder: `cp -r vendor/.context-desk .` writes
 * `./.context-desk`. A source copied by its contents (`cp -a payload/. .`, `rsync -a payload/ .`) puts
 * there what it holds: its folder of the store's `name` when one exists (looked up from `cwd`).
 * To be resolved only (a name among them is not a write: `cp -r .context-desk backup/` reads the store).
 */
export function placedPaths(words: string[], cwd: string, name: string, exists: (p: string) => boolean): string[] {
  const program = path.basename(words[0] ?? '');
  if (!PLACES.test(program)) return [];
  const operands = words.slice(1).filter((a) => !a.startsWith('-'));
  if (operands.length < 2) return [];
  const target = operands[operands.length - 1]!;
  const out: string[] = [];
  for (const source of operands.slice(0, -1)) {
    const contents = /\/\.?$/.test(source) && (program === 'rsync' || source.endsWith('/.'));
    if (!contents) out.push(path.posix.join(target, path.posix.basename(source)));
    else if (exists(path.resolve(cwd, source, name))) out.push(path.posix.join(target, name));
  }
  return out;
}
