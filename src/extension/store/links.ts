// Links in the store's Markdown transcripts: masked-observation placeholders and "Full output" lines
// open the stored file (through the same reference check as every other open).
import * as vscode from 'vscode';
import { findPlaceholderPaths } from '../../core/strategies/placeholder';

const FULL_OUTPUT = /Full output \(\d+ lines, ~?\d+ tokens\): (\S+) - read, tail or grep it/g;

export class StoreLinkProvider implements vscode.DocumentLinkProvider {
  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const text = doc.getText();
    const found = findPlaceholderPaths(text);
    for (const m of text.matchAll(FULL_OUTPUT)) {
      const start = m.index + m[0].indexOf(m[1]!);
      found.push({ path: m[1]!, start, end: start + m[1]!.length });
    }
    return found.map(({ path, start, end }) => {
      const target = vscode.Uri.parse(`command:contextDesk.openStored?${encodeURIComponent(JSON.stringify([path]))}`);
      const link = new vscode.DocumentLink(new vscode.Range(doc.positionAt(start), doc.positionAt(end)), target);
      link.tooltip = 'Open the stored full text';
      return link;
    });
  }
}
