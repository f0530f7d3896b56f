// The status bar item: context usage of the active chat session (tokens sent on the last call against
// the model's window), with cost so far in the tooltip. Clicking it shows the panel.
import * as vscode from 'vscode';
import type { ChatSnapshot } from '../protocol/chat';
import { formatUsd } from '../protocol/money';
import { formatTokens, formatUsedPercent } from '../protocol/token-count';

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
    const pct = m.contextWindow > 0 ? Math.round((m.tokensInWindow / m.contextWindow) * 100) : 0;
    const approx = m.estimated ? '≈' : '';
    this.item.text = `$(layers) ${approx}${formatTokens(m.tokensInWindow)}/${formatTokens(m.contextWindow)} (${pct}%)`;
    this.item.tooltip = new vscode.MarkdownString(
      [
        `**Context Desk** — ${s.strategy}, ${m.calls} calls`,
        `Last call: ${approx}${m.tokensInWindow.toLocaleString()} tokens sent (raw history: ${m.rawHistoryTokens.toLocaleString()}), ${m.cachedTokens.toLocaleString()} cacheable`,
        m.reported
          ? `Provider reported: ${m.reported.inputTokens.toLocaleString()} prompt tokens${m.reported.cachedTokens !== undefined ? ` (${m.reported.cachedTokens.toLocaleString()} cached)` : ''}`
          : '',
        `Masked observations: ${m.maskedObservations}${m.maskedStored !== undefined ? ` (${m.maskedStored} stored)` : ''}`,
        m.costUsd !== undefined
          ? `Cost so far: ${formatUsd(m.costUsd)} (${Math.round(m.costUnits).toLocaleString()} units)`
          : `Cost so far: ${Math.round(m.costUnits).toLocaleString()} units (input-token equivalents: one unit is one uncached input token; the price of this model is not known)`,
        m.budget
          ? `Budget: ${m.budget.state}, ${formatUsedPercent(m.budget.usedPercent)} of ${m.budget.limit.toLocaleString()}`
          : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
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
