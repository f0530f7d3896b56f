// Path safety for the agent's tools: a path must lie inside the workspace root or the store (or, for
// reading, a read-only root such as a skills folder in the home directory), both as written (no `..`
// escapes, no absolute paths elsewhere) and after symlinks are resolved. The store is read-only to the
// agent: only Context Desk writes there (redacted), and stored outputs, history and call records must
// stay as recorded (an edited history would put words in the user's mouth on resume).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';

export interface PathRoots {
  workspaceRoot: string;
  /** The Context Desk store (often `<workspace>/.context-desk`, may be elsewhere). */
  storeRoot?: string;
  /** Folders the agent may read but never write or run commands in (skills outside the workspace). */
  readOnlyRoots?: readonly string[];
}

/** `write` covers edits and a command's working folder; `read` also allows the read-only roots. */
export type PathAccess = 'read' | 'write';

export type ResolvedPath =
  | {
      ok: true;
      /** The real path (links resolved): what is read or written. */
      absolute: string;
      /** The path as written, workspace-relative with `/` when inside the workspace. */
      display: string;
      /**
       * Where a link leads, when that is another file than `display` names: the real path, relative to
       * the real workspace root (absolute when outside it). An approval names both.
       */
      target?: string;
      /** The real path is in the store: a reader refuses it with other names (a hard link a command made). */
      inStore?: true;
    }
  | { ok: false; message: string };

/** Whether `p` lies in a `.git` folder at any depth of `root` (any case: macOS and Windows ignore it). */
function inGitFolder(root: string, p: string): boolean {
  return (
    inside(root, p) &&
    path
      .relative(root, p)
      .split(path.sep)
      .some((s) => s.toLowerCase() === '.git')
  );
}

/** Links followed by `realish` before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * realpath of the path, or of its nearest existing ancestor joined with the rest (for new files). A
 * link whose target is missing is followed by hand: a write to it creates its target, so the target is
 * what must lie inside a root.
 */
async function realish(p: string, links = 0): Promise<string> {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fsp.realpath(current), ...rest);
    } catch (e) {
      const parent = path.dirname(current);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw e;
      const target = await fsp.readlink(current).catch(() => undefined);
      if (target !== undefined) {
        if (links >= MAX_LINKS) throw new Error('too many levels of symbolic links', { cause: e });
        return realish(path.join(path.resolve(parent, target), ...rest), links + 1);
      }
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

export class PathGuard {
  private readonly roots: string[];
  private readonly readOnly: string[];
  private realRoots: Promise<{ write: string[]; read: string[]; store?: string }> | undefined;

  constructor(private readonly r: PathRoots) {
    this.roots = [path.resolve(r.workspaceRoot), ...(r.storeRoot ? [path.resolve(r.storeRoot)] : [])];
    this.readOnly = (r.readOnlyRoots ?? []).map((p) => path.resolve(p));
  }

  get workspaceRoot(): string {
    return this.roots[0]!;
  }

  get storeRoot(): string | undefined {
    return this.roots[1];
  }

  private describeRoots(access: PathAccess): string {
    if (access === 'write') return this.r.storeRoot ? 'the workspace (not the Context Desk store)' : 'the workspace';
    const base = this.r.storeRoot ? 'the workspace or the Context Desk store' : 'the workspace';
    return access === 'read' && this.readOnly.length > 0 ? `${base} (or, to read, a skills folder)` : base;
  }

  /** Resolves a path the model gave (relative to the workspace, or absolute) or says why it is refused. */
  async resolve(input: unknown, access: PathAccess = 'read'): Promise<ResolvedPath> {
    if (typeof input !== 'string' || input.trim() === '') return { ok: false, message: 'The path is empty.' };
    if (input.includes('\0')) return { ok: false, message: 'The path contains a NUL byte.' };
    const absolute = path.resolve(this.workspaceRoot, input);
    const refused = (why: string): ResolvedPath => ({
      ok: false,
      message: `Refused: "${input}" ${why}. Only paths inside ${this.describeRoots(access)} can be used${access === 'write' ? ' for this' : ''} (relative to ${this.workspaceRoot}).`,
    });
    const allowed = access === 'read' ? [...this.roots, ...this.readOnly] : [this.workspaceRoot];
    // Without case: on a disk that ignores it (macOS, Windows, WSL's /mnt/c, a casefolded folder),
    // `.Context-Desk/history/s.jsonl` is the store's file, and realpath keeps the case as written on Linux.
    const inStore = (p: string, store: string | undefined): boolean =>
      store !== undefined && inside(store.toLowerCase(), p.toLowerCase());
    const storeRefusal = (): ResolvedPath =>
      refused('is in the Context Desk store, which only Context Desk writes (read it with read_file, tail or grep)');
    if (access === 'write' && inStore(absolute, this.storeRoot)) return storeRefusal();
    if (!allowed.some((root) => inside(root, absolute))) return refused('is outside');
    let real: string;
    try {
      real = await realish(absolute);
    } catch (e) {
      return { ok: false, message: `Cannot resolve "${input}": ${(e as Error).message}` };
    }
    this.realRoots ??= (async () => {
      const [workspace, store] = await Promise.all(this.roots.map((root) => realish(root)));
      const readOnly = await Promise.all(this.readOnly.map((root) => realish(root).catch(() => root)));
      const both = store === undefined ? [workspace!] : [workspace!, store];
      return { write: [workspace!], read: [...both, ...readOnly], ...(store === undefined ? {} : { store }) };
    })();
    const realRoots = await this.realRoots;
    if (access === 'write' && inStore(real, realRoots.store)) return storeRefusal();
    // git runs what its folder names (hooks, `core.fsmonitor`, aliases): an edit there runs code later,
    // outside any approval of commands. The agent changes a repository through git commands instead.
    // Any repository's: a workspace holding several (`frontend/.git`) has VS Code's git run in each.
    if (access === 'write' && inGitFolder(realRoots.write[0]!, real))
      return refused("is in git's own folder (.git), where an edit can make git run a program; use git commands");
    if (!realRoots[access].some((root) => inside(root, real))) return refused('leads outside through a symbolic link');
    // A hard link is the same file under another name, perhaps outside (`ln ~/.bashrc notes.txt`):
    // an editor saves in place, so the edit would change that file too. realpath cannot see it.
    const st = access === 'write' ? await fsp.lstat(real).catch(() => undefined) : undefined;
    if (st?.isFile() && st.nlink > 1)
      return refused(
        'is a file with other names (a hard link), which may lie outside the workspace and would change too',
      );
    const shown = (root: string, p: string): string =>
      inside(root, p) ? path.relative(root, p).split(path.sep).join('/') || '.' : p;
    const display = shown(this.workspaceRoot, absolute);
    const target = shown(realRoots.write[0]!, real);
    return {
      ok: true,
      absolute: real,
      display,
      ...(target !== display ? { target } : {}),
      ...(inStore(real, realRoots.store) ? { inStore: true as const } : {}),
    };
  }
}
