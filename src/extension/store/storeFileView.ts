// Store files (terminal logs, stored outputs, grep matches, transcripts, MCP tool descriptions) open in
// the editor as read-only documents of their own scheme, holding the text read from the file that was
// checked. Opening them by path would let a link a command swaps in between the check and VS Code's
// open show a foreign file as the store's own, and a save would then write into that file. A document
// is read again (through the same check) when its file changes, so an open terminal log follows.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readStoreFileToShow, type StoreFileShown } from '../../core/search/single-name';

export const STORE_FILE_SCHEME = 'context-desk-store';

export interface ShowOptions {
  /** What the file is, for the refusal: `the terminal log`. */
  what: string;
  /** Where the cursor goes (a grep match). */
  selection?: vscode.Range;
  /** Says why it was refused; by default an error message does. */
  refused?: (why: string) => void;
}

/** Opens a store file read-only; false (after saying why) when it is refused. */
export type ShowStoreFile = (root: string, file: string, options: ShowOptions) => Promise<boolean>;

/** Tests only: a function stored under this key on globalThis runs right after a file's check (a link is swapped in there). */
const AFTER_CHECK = Symbol.for('contextDesk.test.afterStoreFileCheck');

/** A change is read again at most this often (a busy terminal appends many times a second)... */
const REFRESH_MS = 300;
/** ...and a large file less often: a millisecond per 20 KB shown (64 MB: every 3.4 s). */
const refreshDelay = (chars: number): number => Math.max(REFRESH_MS, Math.round(chars / 20_000));

interface Shown {
  root: string;
  /** What the editor shows: the checked text, and a note below it when it was cut or not read again. */
  text: string;
  /** The last checked text alone. */
  base: string;
  watcher?: vscode.Disposable;
  timer?: NodeJS.Timeout;
}

export class StoreFileView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly shown = new Map<string, Shown>();
  private readonly closing: vscode.Disposable;

  /** `currentRoot`: the window's store (as opened, refusals applied), for a document not opened here (a restored tab). */
  constructor(
    private readonly currentRoot: () => Promise<string>,
    private readonly read: (root: string, file: string) => Promise<StoreFileShown> = readStoreFileToShow,
  ) {
    this.closing = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme !== STORE_FILE_SCHEME) return;
      const entry = this.shown.get(doc.uri.toString());
      entry?.watcher?.dispose();
      clearTimeout(entry?.timer);
      this.shown.delete(doc.uri.toString());
    });
  }

  readonly show: ShowStoreFile = async (root, file, { what, selection, refused }) => {
    const checked = await this.read(root, file);
    if (!checked.ok) {
      if (refused) refused(checked.why);
      else void vscode.window.showErrorMessage(`Context Desk: cannot open ${what}: ${checked.why}`);
      return false;
    }
    await (globalThis as { [AFTER_CHECK]?: (file: string) => unknown })[AFTER_CHECK]?.(checked.real);
    const uri = vscode.Uri.file(checked.real).with({ scheme: STORE_FILE_SCHEME });
    const key = uri.toString();
    const entry = this.shown.get(key);
    if (entry) {
      Object.assign(entry, { root, text: withNote(checked), base: checked.text });
      this.changed.fire(uri);
    } else
      this.shown.set(key, {
        root,
        text: withNote(checked),
        base: checked.text,
        watcher: this.watch(uri, checked.real),
      });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, ...(selection ? { selection } : {}) });
    return true;
  };

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    const entry = this.shown.get(key);
    if (entry) return entry.text;
    // Not opened here (a tab VS Code restored, a link elsewhere): read only as a file of this window's store.
    const root = await this.currentRoot().catch(() => undefined);
    if (root === undefined)
      return '(Context Desk: its folder cannot be opened; open the file again from Context Desk.)\n';
    const checked = await this.read(root, uri.fsPath);
    if (!checked.ok) return `(Context Desk: ${checked.why})\n`;
    const text = withNote(checked);
    this.shown.set(key, { root, text, base: checked.text, watcher: this.watch(uri, checked.real) });
    return text;
  }

  /** Reads the file again soon after it changes; a refusal keeps what was shown and says why below it. */
  private watch(uri: vscode.Uri, real: string): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(real)), path.basename(real)),
    );
    const key = uri.toString();
    const later = (): void => {
      const entry = this.shown.get(key);
      if (!entry || entry.timer) return;
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        void this.read(entry.root, real).then((checked) => {
          if (this.shown.get(key) !== entry) return;
          if (checked.ok) entry.base = checked.text;
          const text = checked.ok ? withNote(checked) : `${entry.base}${NOTE_START}not read again: ${checked.why})\n`;
          if (text === entry.text) return;
          entry.text = text;
          this.changed.fire(uri);
        });
      }, refreshDelay(entry.base.length));
    };
    return vscode.Disposable.from(
      watcher,
      watcher.onDidChange(later),
      watcher.onDidCreate(later),
      watcher.onDidDelete(later),
    );
  }

  dispose(): void {
    this.closing.dispose();
    for (const entry of this.shown.values()) {
      entry.watcher?.dispose();
      clearTimeout(entry.timer);
    }
    this.shown.clear();
    this.changed.dispose();
  }
}

const NOTE_START = '\n(Context Desk: ';

/** The text, and a last line saying so when only its first part is shown. */
function withNote(checked: Extract<StoreFileShown, { ok: true }>): string {
  if (!checked.cut) return checked.text;
  const mb = Math.round(checked.text.length / 1024 / 1024);
  return `${checked.text}${NOTE_START}only the first ${mb} MB of this file are shown; Grep Terminals searches all of it)\n`;
}
