// The user's own redaction patterns (`contextDesk.redaction.patterns`) reach the engine in the features
// bundle, where the stores write: when it loads and whenever the setting changes. The setting is
// application-scoped: a workspace cannot add patterns (a catastrophic regex would stall every write).
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { featuresIfLoaded, whenFeaturesLoad } from './lazy';
import { SECTION, type Settings } from './settings';

const KEY = 'redaction.patterns';

export function registerRedactionPatterns(
  context: vscode.ExtensionContext,
  settings: () => Settings,
  logger: Logger,
): void {
  const apply = (f: NonNullable<ReturnType<typeof featuresIfLoaded>>): void => {
    const problems = f.setCustomPatterns(settings()[KEY]);
    if (problems.length === 0) return;
    const lines = f.describeProblems(problems, `${SECTION}.${KEY}`);
    for (const line of lines) logger.warn(line);
    const more = lines.length > 1 ? ` (and ${lines.length - 1} more, see the log)` : '';
    void vscode.window
      .showWarningMessage(`Context Desk: ${lines[0]}${more}`, 'Open Settings')
      .then((pick) =>
        pick ? vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${KEY}`) : undefined,
      );
  };
  whenFeaturesLoad(apply);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      const f = featuresIfLoaded();
      if (f && e.affectsConfiguration(`${SECTION}.${KEY}`)) apply(f);
    }),
  );
}
