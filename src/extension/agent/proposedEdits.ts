// The proposed text of edits waiting for approval, as virtual documents (`context-desk-proposed:`),
// so VS Code's own diff editor shows them. Registered at activation; kept small and free of imports.
import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'context-desk-proposed';

export class ProposedEdits implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** A new virtual document for `file` holding `text`. */
  create(file: vscode.Uri, text: string, label = 'proposed'): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: file.path, query: `${label}-${++this.next}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  update(uri: vscode.Uri, text: string): void {
    if (this.texts.get(uri.toString()) === text) return;
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}
