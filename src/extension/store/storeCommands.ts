// Commands over the store: Open Masked Observation, Grep Terminals (and outputs, history), Open Terminal
// Log, Reveal Context Folder.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { grepStore, type GrepScope } from '../../core/search/store-grep';
import type { GrepMatch } from '../../core/search/ripgrep';
import { unreadableNote } from '../../core/search/unreadable';
import type { ChatSnapshot } from '../../protocol/chat';
import type { ContextFolder } from '../contextFolder';
import type { TerminalCapture } from './terminalCapture';
import type { ContextStore } from '../../core/store/context-store';
import { formatCount } from '../../core/numbers';
import type { ShowStoreFile } from './storeFileView';

export interface StoreCommandDeps {
  folder: () => ContextFolder;
  /** Opens (creating it through the store writer, if needed) the window's store. */
  openStore: () => Promise<ContextStore>;
  chat: () => ChatSnapshot | undefined;
  terminals: () => TerminalCapture;
  openStored: (reference: string) => Promise<boolean>;
  /** Opens a store file read-only, as checked (storeFileView.ts). */
  showFile: ShowStoreFile;
}

export function registerStoreCommands(context: vscode.ExtensionContext, d: StoreCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('contextDesk.openMaskedObservation', (reference?: string) =>
      reference ? d.openStored(reference) : pickMasked(d),
    ),
    vscode.commands.registerCommand('contextDesk.openStored', (reference: string) => d.openStored(reference)),
    vscode.commands.registerCommand('contextDesk.grepTerminals', (scope?: GrepScope, pattern?: string) =>
      grepPick(d.folder().root, d.showFile, scope ?? 'all', pattern),
    ),
    vscode.commands.registerCommand('contextDesk.openTerminalLog', async () => {
      const terminal = vscode.window.activeTerminal;
      if (!terminal) {
        void vscode.window.showInformationMessage('Context Desk: there is no active terminal.');
        return false;
      }
      const entry = (await d.terminals().list()).find((x) => x.terminal === terminal);
      const log = entry?.log;
      if (!log) {
        void vscode.window.showInformationMessage(
          entry?.state === 'off'
            ? 'Context Desk: terminal capture is off (contextDesk.terminals.capture).'
            : `Context Desk: "${terminal.name}" has no log yet. Commands are captured in terminals with shell integration (terminal.integrated.shellIntegration.enabled; bash, zsh, fish or PowerShell) once they run a command; task terminals once their task runs.`,
        );
        return false;
      }
      return d.showFile(d.folder().root, log, { what: 'the terminal log' });
    }),
    vscode.commands.registerCommand('contextDesk.revealContextFolder', async () => {
      const store = await d.openStore();
      const root = vscode.Uri.file(store.root);
      if (store.workspaceRoot) await vscode.commands.executeCommand('revealInExplorer', root);
      else await vscode.commands.executeCommand('revealFileInOS', root);
    }),
  );
}

async function pickMasked(d: StoreCommandDeps): Promise<void> {
  const chat = d.chat();
  const masked = (chat?.items ?? [])
    .flatMap((item) => (item.kind === 'assistant' ? item.tools.filter((t) => t.masked).map((t) => ({ item, t })) : []))
    .reverse();
  const lines = (n: number | undefined): string =>
    n === undefined ? 'full output' : `${formatCount(n)} line${n === 1 ? '' : 's'}`;
  const items: (vscode.QuickPickItem & { reference?: string })[] = masked
    .filter(({ t }) => t.storedAt)
    .map(({ item, t }) => ({
      label: `Turn ${item.turn}: ${t.tool}`,
      // The full output's size (the stored file), not the preview the model had.
      description: `${lines(t.outputLines)} · the model now sees one line`,
      detail: (t.preview ?? '').split('\n').find((l) => l.trim()) ?? '',
      reference: t.storedAt!,
    }));
  const unstored = masked.length - items.length;
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      unstored > 0
        ? `Context Desk: ${unstored} observation${unstored === 1 ? ' is' : 's are'} masked, not stored (short outputs have no file); the session's transcript keeps them.`
        : 'Context Desk: no observation of the current session is masked yet.',
    );
    return;
  }
  if (unstored > 0)
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      {
        label: `$(info) ${unstored} more masked, not stored`,
        detail: 'Short outputs are masked without a file; the session transcript keeps their text.',
      },
    );
  const picked = await vscode.window.showQuickPick(items, { title: 'Open Masked Observation', matchOnDetail: true });
  if (picked?.reference) await d.openStored(picked.reference);
}

/** A quick pick that searches as you type, streaming matches in; Escape cancels the search. */
async function grepPick(root: string, show: ShowStoreFile, scope: GrepScope, initial?: string): Promise<void> {
  type Item = vscode.QuickPickItem & { match?: GrepMatch };
  const qp = vscode.window.createQuickPick<Item>();
  let regex = true;
  const toggle: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('regex'),
    tooltip: 'Toggle regular expression / literal',
  };
  qp.title = `Grep ${scope === 'all' ? 'terminals, tool outputs and history' : scope}`;
  qp.placeholder = 'Pattern (regular expression)';
  qp.buttons = [toggle];
  qp.matchOnDescription = true;
  let search: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = (pattern: string): void => {
    search?.abort();
    if (!pattern) {
      qp.items = [];
      return;
    }
    const controller = new AbortController();
    search = controller;
    qp.busy = true;
    void (async () => {
      const found: Item[] = [];
      let flushed = 0;
      let unreadable: string[] = [];
      try {
        for await (const m of grepStore({
          root,
          pattern,
          scope,
          fixed: !regex,
          caseMode: 'smart',
          maxMatches: 1000,
          signal: controller.signal,
          // Where the match is: the label shows it and accepting opens the file there.
          ranges: true,
          locate: { appRoot: vscode.env.appRoot },
          // A file it cannot read does not void the matches found in the rest; a last item names it.
          onUnreadable: (paths) => (unreadable = paths),
        })) {
          found.push({
            label: aroundMatch(m) || '(blank line)',
            description: `${path.relative(root, m.file)}:${m.line}`,
            match: m,
            alwaysShow: true,
          });
          if (found.length - flushed >= 50) {
            qp.items = [...found];
            flushed = found.length;
          }
        }
        if (!controller.signal.aborted) {
          const items = found.length ? found : [{ label: `No matches for ${pattern}`, alwaysShow: true }];
          const note = unreadableNote(unreadable, root).trim().slice(1, -1);
          qp.items = note ? [...items, { label: `$(warning) ${note}`, alwaysShow: true }] : items;
        }
      } catch (e) {
        if (!controller.signal.aborted)
          qp.items = [{ label: `$(error) ${e instanceof Error ? e.message : String(e)}`, alwaysShow: true }];
      } finally {
        if (search === controller) qp.busy = false;
      }
    })();
  };
  qp.onDidChangeValue((v) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(v), 150);
  });
  qp.onDidTriggerButton(() => {
    regex = !regex;
    qp.placeholder = regex ? 'Pattern (regular expression)' : 'Pattern (literal text)';
    run(qp.value);
  });
  qp.onDidAccept(async () => {
    const m = qp.selectedItems[0]?.match;
    if (!m) return;
    qp.hide();
    const pos = new vscode.Position(m.line - 1, m.ranges[0]?.start ?? 0);
    await show(root, m.file, { what: 'the match', selection: new vscode.Range(pos, pos) });
  });
  qp.onDidHide(() => {
    search?.abort();
    clearTimeout(timer);
    qp.dispose();
  });
  qp.show();
  if (initial) {
    qp.value = initial;
    run(initial);
  }
}

/** Up to 200 characters of a matching line around its first match (a long line's match can lie far in). */
function aroundMatch(m: GrepMatch): string {
  const from = Math.max(0, (m.ranges[0]?.start ?? 0) - 40);
  const shown = m.text.slice(from, from + 200).trim();
  return from > 0 && shown ? `…${shown}` : shown;
}
