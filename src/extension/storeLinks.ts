// Opens files of the store by reference (a masked observation's path, a long output's path) after the
// core has checked that the reference stays inside the store.
import * as vscode from 'vscode';
import { ContextStore } from '../core/store/context-store';
import { StoreReferenceError } from '../core/store/errors';
import type { ContextFolder } from './contextFolder';

/** Opens (creating on first use) the store of this window. */
export function openContextStore(folder: ContextFolder): Promise<ContextStore> {
  return ContextStore.open({
    root: folder.root,
    ...(folder.workspaceFolder ? { workspaceRoot: folder.workspaceFolder } : {}),
  });
}

export async function openStoredReference(folder: ContextFolder, reference: string): Promise<boolean> {
  try {
    const store = await openContextStore(folder);
    const resolved = await store.resolveReference(reference);
    await vscode.window.showTextDocument(vscode.Uri.file(resolved.absolute), { preview: true });
    return true;
  } catch (e) {
    const message = e instanceof StoreReferenceError || e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`Context Desk: cannot open ${reference}: ${message}`);
    return false;
  }
}
