// The status bar item: context usage of the active chat session (tokens sent on the last call against
// the model's window), with cost so far in the tooltip. Clicking it shows the panel.
import * as vscode from 'vscode';
import type { ChatSnapshot } from '../protocol/chat';
import { statusBarText, statusBarTooltip, windowPercent } from './statusBarText';

export class ContextStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'contextDesk.context',
    vscode.StatusBarAlignment.Right,
    100,
  );

  constructor() {
    this.item.name = 'Context Desk: context usage';
    this.item.command = 'contextDesk.showPanel';
  }

  update(s: ChatSnapshot): void {
    const m = s.meter;
    if (m.calls === 0) {
      this.item.hide();
      return;
    }
    const pct = windowPercent(s);
    this.item.text = statusBarText(s);
    this.item.tooltip = new vscode.MarkdownString(statusBarTooltip(s));
    this.item.backgroundColor =
      pct >= 90 || m.budget?.state === 'exceeded'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : pct >= 75 || m.budget?.state === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
