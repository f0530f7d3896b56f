// The store: one folder per workspace holding the agent's memory as plain files.
//
//   <root>/.gitignore                         "*": the store never lands in git
//   <root>/tool-outputs/<session>/<turn>-<tool>.txt
//   <root>/terminals/<terminal>-<id>.log
//   <root>/history/<session>.jsonl            full fidelity, one JSON record per line
//   <root>/history/<session>.md               readable transcript
//   <root>/mcp/                               reserved (MCP tool descriptions)
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StoreReferenceError, StoreWriteError } from './errors';
import { safeName } from './names';
import { rotateFolder, type RotationResult } from './rotation';

/** The folders of the store. */
export type StoreFolder = 'tool-outputs' | 'terminals' | 'history' | 'mcp';
export const STORE_FOLDERS: readonly StoreFolder[] = ['tool-outputs', 'terminals', 'history', 'mcp'];

/** Default name of the store folder at the workspace root. */
export const DEFAULT_STORE_DIR = '.context-desk';

/** Default size caps per folder, in bytes. */
export const DEFAULT_CAPS: Readonly<Record<StoreFolder, number>> = {
  'tool-outputs': 512 * 1024 * 1024,
  terminals: 256 * 1024 * 1024,
  history: 256 * 1024 * 1024,
  mcp: 64 * 1024 * 1024,
};

export interface ContextStoreOptions {
  /** Absolute path of the store folder (e.g. `<workspace>/.context-desk`, or the extension's storage). */
  root: string;
  /** Workspace folder, when there is one: references and paths shown to the agent are relative to it. */
  workspaceRoot?: string;
  /** Size cap per folder in bytes (missing entries use `DEFAULT_CAPS`). */
  caps?: Partial<Record<StoreFolder, number>>;
}

/** A reference resolved to a real file inside the store. */
export interface ResolvedReference {
  /** Absolute path (symlinks resolved). */
  absolute: string;
  /** Path relative to the store root, with `/` separators. */
  storeRelative: string;
  /** Path relative to the workspace (with `/`), or the absolute path when there is no workspace. */
  display: string;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The file store. Create it with `ContextStore.open`, which makes the folders and the `.gitignore`.
 * All writers (tool outputs, terminal logs, history) get their paths from here, and every reference
 * coming back from the agent, a link or the user goes through `resolveReference`.
 */
export class ContextStore {
  readonly root: string;
  readonly workspaceRoot: string | undefined;
  readonly caps: Readonly<Record<StoreFolder, number>>;
  private readonly openFiles = new Set<string>();

  private constructor(options: ContextStoreOptions) {
    this.root = path.resolve(options.root);
    this.workspaceRoot = options.workspaceRoot === undefined ? undefined : path.resolve(options.workspaceRoot);
    this.caps = { ...DEFAULT_CAPS, ...options.caps };
  }

  /** Opens (creating if needed) the store at `options.root`. Idempotent; safe from two windows at once. */
  static async open(options: ContextStoreOptions): Promise<ContextStore> {
    const store = new ContextStore(options);
    try {
      await fsp.mkdir(store.root, { recursive: true });
      for (const f of STORE_FOLDERS) await fsp.mkdir(path.join(store.root, f), { recursive: true });
      // 'wx' so a second window does not rewrite the file the first one made.
      await fsp
        .writeFile(path.join(store.root, '.gitignore'), '*\n', { flag: 'wx' })
        .catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
    } catch (e) {
      const why = (e as Error).message;
      throw new StoreWriteError(store.root, `Cannot use ${store.root} as the Context Desk folder: ${why}`, {
        cause: e,
      });
    }
    return store;
  }

  /** Absolute path of a store folder. */
  folder(name: StoreFolder): string {
    return path.join(this.root, name);
  }

  /** `tool-outputs/<session>/<turn>-<tool>.txt` (turn zero-padded so names sort by turn). */
  toolOutputPath(session: string, turn: number, tool: string): string {
    const t = String(Math.max(0, Math.floor(turn))).padStart(4, '0');
    return path.join(this.root, 'tool-outputs', safeName(session), `${t}-${safeName(tool)}.txt`);
  }

  /** `terminals/<terminal>-<id>.log`. */
  terminalLogPath(terminalName: string, id: string | number): string {
    return path.join(this.root, 'terminals', `${safeName(terminalName)}-${safeName(String(id))}.log`);
  }

  /** `history/<session>.jsonl` and `history/<session>.md`. */
  historyPaths(session: string): { jsonl: string; markdown: string } {
    const base = path.join(this.root, 'history', safeName(session));
    return { jsonl: `${base}.jsonl`, markdown: `${base}.md` };
  }

  /** How to show an absolute store path to the agent or the user: workspace-relative when possible. */
  displayPath(absolute: string): string {
    if (this.workspaceRoot && isInside(this.workspaceRoot, absolute))
      return toPosix(path.relative(this.workspaceRoot, absolute));
    return absolute;
  }

  /**
   * Resolves a reference to a file inside the store. Accepts a workspace-relative path
   * (`.context-desk/terminals/bash-1.log`), a store-relative one (`terminals/bash-1.log`) or an
   * absolute path inside the store. Refuses (with a `StoreReferenceError` whose message can be shown
   * as is) any `..` segment, absolute paths outside the store, symlinks that lead out of it, and
   * references to missing files or folders.
   */
  async resolveReference(reference: string): Promise<ResolvedReference> {
    const ref = reference.trim();
    const refuse = (problem: StoreReferenceError['problem'], why: string): never => {
      throw new StoreReferenceError(reference, problem, `Refused to open '${reference}': ${why}`);
    };
    if (ref === '') refuse('empty', 'the reference is empty.');
    if (ref.includes('\0')) refuse('invalid', 'the reference contains a NUL byte.');
    const segments = ref.split(/[\\/]+/);
    if (segments.includes('..'))
      refuse('traversal', "'..' is not allowed; only files inside the Context Desk folder can be opened.");

    let candidate: string;
    if (path.isAbsolute(ref) || /^[A-Za-z]:[\\/]/.test(ref)) {
      candidate = path.resolve(ref);
      if (!isInside(this.root, candidate)) refuse('outside', `it is outside the Context Desk folder ${this.root}.`);
    } else {
      const rel = segments.filter((s) => s !== '' && s !== '.').join('/');
      const viaWorkspace = this.workspaceRoot ? path.resolve(this.workspaceRoot, rel) : undefined;
      candidate = viaWorkspace && isInside(this.root, viaWorkspace) ? viaWorkspace : path.resolve(this.root, rel);
    }

    let real: string;
    try {
      real = await fsp.realpath(candidate);
    } catch {
      return refuse('not-found', 'no such file in the Context Desk folder (it may have been rotated away).');
    }
    const realRoot = await fsp.realpath(this.root);
    if (!isInside(realRoot, real)) refuse('symlink-escape', 'it is a link that leads outside the Context Desk folder.');
    const st = await fsp.stat(real);
    if (!st.isFile()) refuse('not-a-file', 'it is a folder, not a file.');
    return {
      absolute: real,
      storeRelative: toPosix(path.relative(realRoot, real)),
      display: this.displayPath(candidate),
    };
  }

  /** Marks a file as in use (an open log): rotation never deletes it. Returns the release function. */
  protect(absolute: string): () => void {
    const p = path.resolve(absolute);
    this.openFiles.add(p);
    return () => this.openFiles.delete(p);
  }

  /** Applies the size cap of one folder (or all), deleting the oldest files that are not in use. */
  async enforceCaps(folder?: StoreFolder): Promise<Partial<Record<StoreFolder, RotationResult>>> {
    const out: Partial<Record<StoreFolder, RotationResult>> = {};
    for (const f of folder ? [folder] : STORE_FOLDERS)
      out[f] = await rotateFolder(this.folder(f), this.caps[f], this.openFiles);
    return out;
  }
}
