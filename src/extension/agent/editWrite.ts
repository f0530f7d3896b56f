// edit_file's write to disk. VS Code's `doc.save()` writes by path, following whatever the path is at
// that moment: a link swapped in after the edit's last check (by a command or a build running meanwhile)
// would carry the agent's text into a file outside the workspace or into .context-desk/. Instead the
// text is encoded as the document is (its encoding and byte order mark; its line endings are in the
// text) and written through a handle pinned to the checked file (core/agent/tools/pinned-file.ts), and
// VS Code reloads the clean document from disk, as it does for any change made outside the editor.
import * as vscode from 'vscode';
import type { ToolOutput } from '../../core/agent/tool-registry';
import { editedFile, type EditRequest } from '../../core/agent/tools';
import { createPinned, openPinnedExisting, rewritePinned } from '../../core/agent/tools/pinned-file';

/** How long the editor is given to show the written file before the result is reported anyway. */
const RELOAD_WAIT_MS = 5_000;

/** Text as compared with the document's: no byte order mark, line endings as \n (VS Code evens them). */
const comparable = (t: string): string => t.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');

/**
 * Writes `proposed` for the clean document `doc`, whose text was `planned` when the edit was planned:
 * only if the file still holds that text (VS Code's save refuses a file changed on disk since it was
 * loaded, too) and nobody typed in the document meanwhile.
 */
export async function writeClean(
  request: EditRequest,
  doc: vscode.TextDocument,
  planned: string,
  proposed: string,
): Promise<ToolOutput> {
  const { name } = editedFile(request);
  const version = doc.version;
  const bytes = await vscode.workspace.encode(proposed, { encoding: doc.encoding });
  const pinned = await openPinnedExisting(request.absolute, name);
  if (!pinned.ok) return { ok: false, text: pinned.why };
  let written: boolean;
  try {
    written = await rewritePinned(pinned.handle, bytes, async (held) => {
      if (doc.isDirty || doc.version !== version) return false;
      const onDisk = await vscode.workspace.decode(held, { encoding: doc.encoding }).then(
        (t) => t,
        () => undefined, // binary now: not the text that was planned on
      );
      return onDisk !== undefined && comparable(onDisk) === comparable(planned);
    });
  } finally {
    await pinned.handle.close();
  }
  if (!written)
    return {
      ok: false,
      text: `${name} changed on disk or in the editor just before writing; nothing was written. Read it again.`,
    };
  const shown = await reloaded(doc, proposed);
  return { ok: true, text: shown ? `Edited ${name}.` : `Edited ${name} on disk (the editor had not reloaded it yet).` };
}

/** Creates the file with `request.newText` (UTF-8, as VS Code creates a file). */
export async function createFile(request: EditRequest): Promise<ToolOutput> {
  const { name } = editedFile(request);
  const pinned = await createPinned(request.absolute, name);
  if (!pinned.ok) return { ok: false, text: pinned.why };
  try {
    await rewritePinned(pinned.handle, new TextEncoder().encode(request.newText));
  } finally {
    await pinned.handle.close();
  }
  return { ok: true, text: `Created ${name}.` };
}

/** Whether the clean document shows `text` (VS Code reloads it after a write outside the editor). */
function reloaded(doc: vscode.TextDocument, text: string): Promise<boolean> {
  const shows = (): boolean => !doc.isDirty && doc.getText() === text;
  if (shows()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (yes: boolean): void => {
      sub.dispose();
      clearTimeout(timer);
      resolve(yes);
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && shows()) done(true);
    });
    const timer = setTimeout(() => done(shows()), RELOAD_WAIT_MS);
  });
}
