// The store owns its folder. A marker file written at creation identifies a Context Desk store; a folder
// is refused as a store when it is the workspace root or an ancestor of it, outside the workspace without
// the user's own consent, a link, or an existing folder that is not a store. A `.context-desk/` of the
// previous version (a `.gitignore` of `*` and only the known sub-folders) is adopted and gets the marker.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readTextFile } from '../read-text';
import { StoreFolderError } from './errors';
import { LOCKS_DIR } from './owners';
import type { StoreWriter } from './store-writer';

/** The marker file at the store root. */
export const STORE_MARKER = '.context-desk-store';
/** What the marker holds (a repository could commit one; it only makes a folder inside the workspace a store). */
export const MARKER_TEXT = 'Context Desk store v1: this folder is managed by the Context Desk extension.\n';

const KNOWN_FOLDERS = ['tool-outputs', 'terminals', 'history', 'mcp'];

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export interface PlacementOptions {
  /** The workspace folder, when there is one. */
  workspaceRoot?: string;
  /** The folder comes from the user's own (user/global) settings or command line: it may lie outside the workspace. */
  allowOutsideWorkspace?: boolean;
  /** Which setting chose the folder, for messages (e.g. `contextDesk.storeFolder`). */
  source?: string;
}

const fixHint = (o: PlacementOptions): string =>
  o.source
    ? ` Set ${o.source} to a dedicated sub-folder of the workspace such as ".context-desk".`
    : ' Choose a dedicated folder such as ".context-desk".';

/** realpath of `p`, or of its nearest existing ancestor joined with the rest (a folder not made yet). */
async function realish(p: string): Promise<string> {
  const rest: string[] = [];
  for (let current = p; ; current = path.dirname(current)) {
    try {
      return path.join(await fsp.realpath(current), ...rest);
    } catch {
      if (path.dirname(current) === current) return p;
      rest.unshift(path.basename(current));
    }
  }
}

/** Lexical and real-path checks of where the store may live. Throws StoreFolderError with the fix. */
export async function checkPlacement(root: string, o: PlacementOptions): Promise<void> {
  if (!o.workspaceRoot) return;
  const ws = path.resolve(o.workspaceRoot);
  const realWs = await realish(ws);
  // A folder not made yet is judged by where it would land: a linked parent leads elsewhere.
  const realRoot = await realish(root);
  for (const [r, w] of [
    [root, ws],
    [realRoot, realWs],
  ] as const) {
    if (isInside(r, w))
      throw new StoreFolderError(
        root,
        `${root} cannot be the Context Desk folder: it is the workspace folder or contains it, and the store deletes old files and ignores everything in its folder.${fixHint(o)}`,
      );
  }
  if (!o.allowOutsideWorkspace && (!isInside(ws, root) || !isInside(realWs, realRoot)))
    throw new StoreFolderError(
      root,
      `${root} is outside the workspace ${ws}; a workspace setting may not place the Context Desk folder there.${o.source ? ` Set ${o.source} in your user settings to use a folder outside the workspace, or a sub-folder of the workspace.` : ''}`,
    );
}

type Verdict = { kind: 'new' } | { kind: 'store' } | { kind: 'adopt' } | { kind: 'refuse'; why: string };

/** Decides whether an existing path can be (or already is) a store. */
export async function inspectFolder(root: string): Promise<Verdict> {
  const st = await fsp.lstat(root).catch(() => undefined);
  if (!st) return { kind: 'new' };
  if (st.isSymbolicLink()) return { kind: 'refuse', why: 'it is a symbolic link' };
  if (!st.isDirectory()) return { kind: 'refuse', why: 'it is a file, not a folder' };
  const entries = await fsp.readdir(root, { withFileTypes: true });
  const marker = entries.find((e) => e.name === STORE_MARKER);
  if (marker) {
    if (!marker.isFile()) return { kind: 'refuse', why: `its ${STORE_MARKER} is not a plain file` };
    return { kind: 'store' };
  }
  if (entries.length === 0) return { kind: 'new' };
  // The previous version's layout: `.gitignore` of `*`, known folders (real ones), lock records at most.
  const gitignore = entries.find((e) => e.name === '.gitignore');
  const text = gitignore?.isFile() ? await readTextFile(path.join(root, '.gitignore'), 64 * 1024).catch(() => '') : '';
  if (text.trim() !== '*') return { kind: 'refuse', why: 'it is not a Context Desk store (it has no store marker)' };
  for (const e of entries) {
    if (e.name === '.gitignore' || e.name === LOCKS_DIR) continue;
    if (!KNOWN_FOLDERS.includes(e.name))
      return { kind: 'refuse', why: `it holds "${e.name}", which no Context Desk store has` };
    if (!e.isDirectory()) return { kind: 'refuse', why: `its "${e.name}" is not a real folder` };
  }
  return { kind: 'adopt' };
}

/** Refuses, or creates / adopts the store at `writer.root` (marker and `.gitignore`, only inside it). */
export async function claimFolder(root: string, open: () => Promise<StoreWriter>): Promise<StoreWriter> {
  const verdict = await inspectFolder(root);
  if (verdict.kind === 'refuse')
    throw new StoreFolderError(
      root,
      `Context Desk will not use ${root} as its folder: ${verdict.why}. Move or delete it, or point contextDesk.storeFolder at a new folder (Context Desk creates it).`,
    );
  const writer = await open();
  if (verdict.kind !== 'store')
    await writer.writeFile(path.join(writer.root, STORE_MARKER), MARKER_TEXT, { exclusive: true });
  // Exclusive: a second window does not rewrite the file the first one made (or the user edited).
  await writer.writeFile(path.join(writer.root, '.gitignore'), '*\n', { exclusive: true });
  return writer;
}
