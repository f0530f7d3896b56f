// The store: one folder per workspace holding the agent's memory as plain files.
//
//   <root>/.context-desk-store                the marker: this folder is a Context Desk store
//   <root>/.gitignore                         "*": the store never lands in git
//   <root>/.locks/<pid>-<rand>.lock           files some process has open for writing (see owners.ts)
//   <root>/tool-outputs/<session>/<turn>-<tool>.txt
//   <root>/terminals/<terminal>-<id>.log
//   <root>/history/<session>.jsonl            full fidelity, one JSON record per line
//   <root>/history/<session>.md               readable transcript
//   <root>/mcp/                               reserved (MCP tool descriptions)
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StoreReferenceError, StoreSymlinkError, StoreWriteError } from './errors';
import { safeName } from './names';
import { redactSecretsSync } from './sanitize/secrets';
import { LOCKS_DIR } from './owners';
import { checkPlacement, claimFolder, type PlacementOptions } from './ownership';
import { cleanLeftovers, rotateFolder, type RotationResult, type StoreFolder } from './rotation';
import { StoreWriter, type StoreWriterOptions } from './store-writer';

export type { StoreFolder } from './rotation';
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

export interface ContextStoreOptions extends StoreWriterOptions, Omit<PlacementOptions, 'workspaceRoot'> {
  /** Absolute path of the store folder (e.g. `<workspace>/.context-desk`, or the extension's storage). */
  root: string;
  /**
   * Workspace folder, when there is one: references and paths shown to the agent are relative to it,
   * and the store refuses to be this folder, one of its ancestors, or (unless `allowOutsideWorkspace`)
   * outside it.
   */
  workspaceRoot?: string;
  /** Size cap per folder in bytes (missing entries use `DEFAULT_CAPS`). */
  caps?: Partial<Record<StoreFolder, number>>;
}

/** Roots whose crash leftovers this process cleaned already (cleaning walks the whole store: once is enough). */
const cleaned = new Set<string>();

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

  private constructor(
    options: ContextStoreOptions,
    /** Every create, write, append, rename and delete under the root goes through it. */
    readonly writer: StoreWriter,
  ) {
    this.root = writer.root;
    this.workspaceRoot = options.workspaceRoot === undefined ? undefined : path.resolve(options.workspaceRoot);
    this.caps = { ...DEFAULT_CAPS, ...options.caps };
  }

  /**
   * Opens (creating if needed) the store at `options.root`. Idempotent; safe from two windows at once.
   * Throws StoreFolderError when the folder cannot be a store (see ownership.ts); a link in place of
   * one of the store's own folders is reported (`onProblem`) and only the writes under it fail.
   */
  static async open(options: ContextStoreOptions): Promise<ContextStore> {
    const root = path.resolve(options.root);
    await checkPlacement(root, options);
    let writer: StoreWriter;
    try {
      writer = await claimFolder(root, () => StoreWriter.open(root, options));
    } catch (e) {
      if (e instanceof StoreWriteError) throw e;
      const why = (e as Error).message;
      throw new StoreWriteError(root, `Cannot use ${root} as the Context Desk folder: ${why}`, { cause: e });
    }
    for (const f of [...STORE_FOLDERS, LOCKS_DIR])
      await writer.mkdir(path.join(root, f)).catch((e: unknown) => {
        if (!(e instanceof StoreSymlinkError)) throw e;
      });
    if (!cleaned.has(writer.realRoot)) {
      cleaned.add(writer.realRoot);
      await cleanLeftovers(writer, STORE_FOLDERS).catch(() => undefined);
    }
    return new ContextStore(options, writer);
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

  /**
   * `terminals/<terminal>-<id>.log`. The name is redacted first: a terminal is named after what it runs
   * (a shell's title, `mysql -uroot -p…`), and a file name is on disk like the text in it.
   */
  terminalLogPath(terminalName: string, id: string | number): string {
    const name = safeName(redactSecretsSync(terminalName).text);
    return path.join(this.root, 'terminals', `${name}-${safeName(String(id))}.log`);
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

  /**
   * Applies the size cap of one folder (or all), deleting the oldest of the store's own files that no
   * process on this machine has open (see owners.ts).
   */
  async enforceCaps(folder?: StoreFolder): Promise<Partial<Record<StoreFolder, RotationResult>>> {
    const out: Partial<Record<StoreFolder, RotationResult>> = {};
    for (const f of folder ? [folder] : STORE_FOLDERS) out[f] = await rotateFolder(this.writer, f, this.caps[f]);
    return out;
  }
}
