// The window's access to its store: opens it (once per folder), falls back when the store refuses the
// configured folder, tells the user once per problem (a refused folder, a link met under the store),
// and opens stored files by reference after the core has checked they stay inside the store.
import * as vscode from 'vscode';
import { ContextStore } from '../core/store/context-store';
import {
  StoreFolderError,
  StoreHardLinkError,
  StoreReferenceError,
  StoreSymlinkError,
  type StoreWriteError,
} from '../core/store/errors';
import type { Logger } from '../core/ports';
import type { ContextFolder, ContextFolders } from './contextFolder';
import type { ShowStoreFile } from './store/storeFileView';

export class StoreAccess {
  private readonly opened = new Map<string, Promise<ContextStore>>();
  private readonly told = new Set<string>();

  constructor(
    private readonly folders: ContextFolders,
    private readonly logger: Logger,
    private readonly showFile: ShowStoreFile,
  ) {}

  /** The store of this window (the current folder, or the fallback when that one was refused). */
  async open(): Promise<ContextStore> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const folder = this.folders.current();
      this.tellRefusals(folder);
      try {
        return await this.openFolder(folder);
      } catch (e) {
        if (!(e instanceof StoreFolderError)) throw e;
        this.folders.refuse(folder.root, `${folder.source}: ${e.message}`);
      }
    }
    const folder = this.folders.current();
    this.tellRefusals(folder);
    return this.openFolder(folder);
  }

  /** One warning per refused folder, naming the folder used instead. */
  private tellRefusals(used: ContextFolder): void {
    for (const [root, why] of this.folders.refusals())
      this.tell(
        `folder:${root}`,
        `Context Desk did not use ${root} as its folder (${why}). It uses ${used.root} instead.`,
        'Open Settings',
      );
  }

  private openFolder(folder: ContextFolder): Promise<ContextStore> {
    let p = this.opened.get(folder.root);
    if (!p) {
      p = ContextStore.open({
        root: folder.root,
        ...(folder.workspaceFolder ? { workspaceRoot: folder.workspaceFolder } : {}),
        allowOutsideWorkspace: folder.allowOutsideWorkspace,
        source: 'contextDesk.storeFolder',
        onProblem: (e) => this.problem(e),
      });
      this.opened.set(folder.root, p);
      p.catch(() => this.opened.delete(folder.root));
    }
    return p;
  }

  /** A refused write (a link or hard link under the store): logged each time, shown once per path. */
  problem(e: StoreWriteError): void {
    this.logger.error(e.message);
    if (e instanceof StoreSymlinkError || e instanceof StoreHardLinkError)
      this.tell(`link:${e.link}`, `Context Desk: ${e.message}`, 'Show Log');
  }

  /** Shows a warning once per key (the log has every occurrence). */
  private tell(key: string, message: string, action: 'Open Settings' | 'Show Log'): void {
    this.logger.warn(message);
    if (this.told.has(key)) return;
    this.told.add(key);
    void vscode.window.showWarningMessage(message, action).then((choice) => {
      if (choice === 'Open Settings')
        void vscode.commands.executeCommand('workbench.action.openSettings', 'contextDesk.storeFolder');
      if (choice === 'Show Log') void vscode.commands.executeCommand('contextDesk.showLog');
    });
  }

  /** Opens a stored file by reference (placeholder path, link, Full output line); false when refused. */
  async openStored(reference: string): Promise<boolean> {
    try {
      const store = await this.open();
      const resolved = await store.resolveReference(reference);
      // Shown as read from the checked file: a file a command hard-linked in (`ln ~/.ssh/id_rsa
      // .context-desk/tool-outputs/x.txt`) or a link swapped in meanwhile is refused.
      return await this.showFile(store.root, resolved.absolute, { what: reference });
    } catch (e) {
      const message = e instanceof StoreReferenceError || e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Context Desk: cannot open ${reference}: ${message}`);
      return false;
    }
  }
}
