// edit_file in VS Code. The proposal is shown in VS Code's diff editor while the user decides, and it
// follows the document if the user types meanwhile; the edit itself is computed against the document
// as it is when the user approves, and refused if its target changed. A document the user had
// unsaved changes in is edited in the editor and never saved: the agent does not save the user's work.
// A clean one is written to disk through a handle pinned to the checked file (editWrite.ts), not saved
// by path, so a link swapped in after the last check is never written through.
// A file reached through a link is named both ways (`docs/x.json → .vscode/tasks.json`), here and in
// what the model is told, and warned about if either path runs programs.
import * as vscode from 'vscode';
import type { ToolOutput } from '../../core/agent/tool-registry';
import {
  editApprovalTitle,
  editDiffTitle,
  editedFile,
  nonUtf8EditRefusalOfFile,
  type EditRequest,
} from '../../core/agent/tools';
import type { ApprovalBroker } from './approvals';
import type { ProposedEdits } from './proposedEdits';
import { createFile, writeClean } from './editWrite';

export interface EditOptions {
  approvals: ApprovalBroker;
  approve: () => boolean;
  proposals?: ProposedEdits;
  /** The path checked again (a hard link or a link made while the approval waited): why it is refused now. */
  recheck?: () => Promise<string | undefined>;
}

type Planned =
  | { ok: true; kind: 'create' | 'overwrite' | 'replace'; at: number; length: number; insert: string; proposed: string }
  | { ok: false; text: string };

interface DocumentState {
  exists: boolean;
  text: string;
  crlf: boolean;
}

async function stateOf(uri: vscode.Uri): Promise<{ state: DocumentState; doc?: vscode.TextDocument }> {
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!exists && !open) return { state: { exists: false, text: '', crlf: false } };
  const doc = open ?? (await vscode.workspace.openTextDocument(uri));
  return { state: docState(doc), doc };
}

function docState(doc: vscode.TextDocument): DocumentState {
  return { exists: true, text: doc.getText(), crlf: doc.eol === vscode.EndOfLine.CRLF };
}

/** Where the edit goes in `s` and the text it makes. Pure: run again at approval time. */
function plan(request: EditRequest, s: DocumentState): Planned {
  const { name } = editedFile(request);
  const eol = (t: string): string => (s.crlf ? t.replace(/\r?\n/g, '\r\n') : t);
  const insert = eol(request.newText);
  if (request.oldText === undefined) {
    const kind = s.exists ? 'overwrite' : 'create';
    return { ok: true, kind, at: 0, length: s.text.length, insert, proposed: insert };
  }
  if (!s.exists) return { ok: false, text: `${name} does not exist; leave out old_text to create it.` };
  const old = eol(request.oldText);
  const at = s.text.indexOf(old);
  if (at === -1) return { ok: false, text: `old_text was not found in ${name}.` };
  if (s.text.indexOf(old, at + 1) !== -1)
    return { ok: false, text: `old_text occurs more than once in ${name}; include more context.` };
  const proposed = s.text.slice(0, at) + insert + s.text.slice(at + old.length);
  return { ok: true, kind: 'replace', at, length: old.length, insert, proposed };
}

function summary(request: EditRequest, p: Extract<Planned, { ok: true }>, s: DocumentState): string {
  const { name } = editedFile(request);
  const lines = (t: string): number => t.split('\n').length;
  if (p.kind !== 'replace') return `${p.kind} ${name} (${lines(request.newText)} lines)`;
  const line = s.text.slice(0, p.at).split('\n').length;
  const minus = (request.oldText ?? '').split('\n').join('\n- ');
  const plus = request.newText.split('\n').join('\n+ ');
  return `${name}:${line}\n- ${minus}\n+ ${plus}`;
}

/** Shows the proposal in a diff editor until the user answers; it follows the user's typing. */
async function askWithDiff(
  request: EditRequest,
  uri: vscode.Uri,
  first: { state: DocumentState; planned: Extract<Planned, { ok: true }> },
  o: EditOptions,
): Promise<boolean> {
  const proposals = o.proposals;
  const title = editApprovalTitle(request);
  const detail = summary(request, first.planned, first.state);
  if (!proposals) return o.approvals.ask('edit', title, detail);
  const right = proposals.create(uri, first.planned.proposed);
  const left = first.state.exists ? uri : proposals.create(uri, '', 'empty');
  const follow = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.uri.toString() !== uri.toString()) return;
    const again = plan(request, docState(e.document));
    proposals.update(right, again.ok ? again.proposed : e.document.getText());
  });
  try {
    await vscode.commands.executeCommand('vscode.diff', left, right, editDiffTitle(request), {
      preview: true,
      preserveFocus: true,
    });
    return await o.approvals.ask('edit', title, `${detail}\n(The edit is shown in a diff editor.)`);
  } finally {
    follow.dispose();
    const tabs = vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.filter(
        (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right.toString(),
      ),
    );
    await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
    proposals.delete(right);
    if (left !== uri) proposals.delete(left);
  }
}

/**
 * Why an edit of the document would damage the file on saving (it is not UTF-8, open as UTF-8), or ''.
 * The file is read as a stream, so one of any size is checked (VS Code holds its text already).
 */
async function encodingRefusal(name: string, doc: vscode.TextDocument): Promise<string> {
  if (doc.uri.scheme !== 'file' || !doc.getText().includes('\ufffd')) return '';
  const refused = await nonUtf8EditRefusalOfFile(name, doc.encoding, doc.uri.fsPath).catch(() => undefined);
  return refused ?? '';
}

/**
 * Tests only: a function stored under this key on globalThis runs right after the edit's last check of
 * its path, the moment a command would have to swap a link in to have the edit written through it.
 */
export const AFTER_EDIT_RECHECK = Symbol.for('contextDesk.test.afterEditRecheck');

async function afterRecheck(file: string): Promise<void> {
  const hook = (globalThis as { [AFTER_EDIT_RECHECK]?: (file: string) => unknown })[AFTER_EDIT_RECHECK];
  await hook?.(file);
}

export async function applyEdit(request: EditRequest, o: EditOptions): Promise<ToolOutput> {
  const { name } = editedFile(request);
  const uri = vscode.Uri.file(request.absolute);
  const before = await stateOf(uri);
  const refused = before.doc && (await encodingRefusal(name, before.doc));
  if (refused) return { ok: false, text: refused };
  const planned = plan(request, before.state);
  if (!planned.ok) return planned;
  if (o.approve() && !(await askWithDiff(request, uri, { state: before.state, planned }, o)))
    return { ok: false, text: 'The user declined this edit.' };

  // The document as it is now: the user may have typed, saved or deleted while deciding.
  const now = await stateOf(uri);
  const changed = `${name} changed while the edit waited for approval`;
  if (planned.kind === 'create' && now.state.exists)
    return { ok: false, text: `${changed} (it exists now); nothing was applied. Read it, then edit it.` };
  if (planned.kind === 'overwrite' && now.state.text !== before.state.text)
    return { ok: false, text: `${changed}; nothing was applied. Read it again before replacing it whole.` };
  const again = plan(request, now.state);
  if (!again.ok) return { ok: false, text: `${changed}: ${again.text} Nothing was applied; read it again.` };
  const moved = await o.recheck?.();
  if (moved) return { ok: false, text: `${changed}: ${moved} Nothing was applied.` };
  await afterRecheck(request.absolute);

  if (again.kind === 'create') return createFile(request);
  const doc = now.doc!;
  if (!doc.isDirty) return writeClean(request, doc, now.state.text, again.proposed);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(again.at), doc.positionAt(again.at + again.length)), again.insert);
  if (!(await vscode.workspace.applyEdit(edit)))
    return { ok: false, text: `VS Code could not apply the edit to ${name} (it changed at that moment?).` };
  return {
    ok: true,
    text: `Edited ${name} in the editor but did not save it: the file had unsaved changes of the user, which the agent never saves. Until the user saves, the file on disk (what read_file and commands see) does not have this edit.`,
  };
}
