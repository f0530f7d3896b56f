// A command line that writes into the store (`echo … >> .context-desk/history/s.jsonl`, `cp x
// .context-desk/…`, `ln ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt`, `… | tee .context-desk/…`)
// changes what Context Desk later reads back as its own (a resumed history, a stored output). It is
// not blocked (the user may mean it), but its approval says so, as for a folder that runs code.
import * as path from 'node:path';

/** Commands that change whatever store path they name (the file itself, or where it is moved from). */
const CHANGES_ANY = new Set(['mv', 'rm', 'unlink', 'shred', 'truncate', 'touch', 'tee', 'mkdir', 'chmod', 'chown']);
/** Commands that write their last argument (or the folder after -t / --target-directory). */
const WRITES_TARGET = new Set(['cp', 'ln', 'install', 'rsync', 'scp']);
/** Wrappers before the command itself. */
const WRAPPERS = new Set(['sudo', 'command', 'exec', 'env', 'nohup', 'time', 'xargs']);

const unquote = (w: string): string => w.replace(/["']/g, '');

/** The line's simple commands, each as its words (quotes removed), and the words after a `>` redirection. */
function parse(line: string): { commands: string[][]; redirected: string[] } {
  const redirected = [...line.matchAll(/(?:^|[^<>&\d])\d*(?:>>?|&>>?|>\|)\s*("[^"]*"|'[^']*'|[^\s;&|<>()]+)/g)].map(
    (m) => unquote(m[1]!),
  );
  const commands = line
    .split(/&&|\|\||[;&|\n()`]|\$\(/)
    .map((part) =>
      (
        part.replace(/\d*(?:>>?|&>>?|>\||<)\s*("[^"]*"|'[^']*'|[^\s;&|<>()]+)/g, ' ').match(/"[^"]*"|'[^']*'|\S+/g) ??
        []
      ).map(unquote),
    );
  return { commands, redirected };
}

/** The words a command writes into, or undefined when it is not one that writes. */
function written(words: string[]): string[] | undefined {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_]\w*=/.test(words[i]!) || WRAPPERS.has(words[i]!))) i++;
  const name = path.basename(words[i] ?? '');
  const args = words.slice(i + 1);
  if (
    CHANGES_ANY.has(name) ||
    (name === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place')))
  )
    return args;
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (!WRITES_TARGET.has(name)) return undefined;
  const target = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory'));
  if (target !== -1) return [args[target]!.split('=')[1] ?? args[target + 1] ?? ''];
  const operands = args.filter((a) => !a.startsWith('-'));
  return operands.length > 0 ? [operands[operands.length - 1]!] : [];
}

/**
 * Why the approval of `command`, run in `cwd`, should say it writes into the store at `storeRoot`, or
 * undefined. A word names the store when it resolves into it from `cwd` or has the store folder's name
 * as one of its segments (`./.context-desk/x`, `$PWD/.context-desk`).
 */
export function storeWriteWarning(command: string, cwd: string, storeRoot: string | undefined): string | undefined {
  if (!storeRoot) return undefined;
  const root = path.resolve(storeRoot).toLowerCase();
  const name = path.basename(root);
  const inStore = (word: string): boolean => {
    const w = word.toLowerCase();
    if (w === '') return false;
    if (w.split('/').includes(name)) return true;
    const rel = path.relative(root, path.resolve(cwd.toLowerCase(), w));
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const { commands, redirected } = parse(command);
  const hits = [...redirected, ...commands.flatMap((c) => written(c) ?? [])].filter(inStore);
  if (hits.length === 0) return undefined;
  return `the line writes into the Context Desk folder (${hits[0]}): history and stored outputs there are read back as Context Desk's own`;
}
