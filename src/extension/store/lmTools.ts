// Language-model tools, so other agents in VS Code (e.g. Copilot agent mode) get terminals-as-files
// too: grep the logs, read a stored file by line range, list terminals.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import { grepStore, type GrepScope } from '../../core/search/store-grep';
import type { TerminalCapture } from './terminalCapture';

const text = (s: string): vscode.LanguageModelToolResult =>
  new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

export function registerLmTools(
  context: vscode.ExtensionContext,
  store: () => Promise<ContextStore>,
  terminals: () => TerminalCapture,
): void {
  context.subscriptions.push(
    vscode.lm.registerTool<{ pattern: string; scope?: GrepScope; fixed?: boolean; maxMatches?: number }>(
      'contextDesk_grepLogs',
      {
        async invoke(options, token) {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          const { pattern, scope = 'all', fixed = false, maxMatches = 100 } = options.input;
          const s = await store();
          const lines: string[] = [];
          for await (const m of grepStore({
            root: s.root,
            pattern,
            scope,
            fixed,
            maxMatches,
            signal: controller.signal,
            locate: { appRoot: vscode.env.appRoot },
          }))
            lines.push(`${s.displayPath(m.file)}:${m.line}: ${m.text}`);
          return text(lines.length ? lines.join('\n') : `No matches for ${pattern} in ${scope}.`);
        },
      },
    ),
    vscode.lm.registerTool<{ path: string; offset?: number; limit?: number }>('contextDesk_readStoredFile', {
      async invoke(options) {
        const { path, offset = 1, limit = 200 } = options.input;
        const resolved = await (await store()).resolveReference(path);
        const all = (await readFile(resolved.absolute, 'utf8')).split('\n');
        const from = Math.max(1, offset);
        const slice = all.slice(from - 1, from - 1 + Math.max(1, Math.min(limit, 2000)));
        return text(
          `${resolved.display} lines ${from}-${from + slice.length - 1} of ${all.length}:\n${slice.join('\n')}`,
        );
      },
    }),
    vscode.lm.registerTool<Record<string, never>>('contextDesk_listTerminals', {
      async invoke() {
        const rows = await Promise.all(
          terminals()
            .list()
            .map(async ({ terminal, captured }) => {
              const log = await terminals().logPath(terminal);
              return `${terminal.name}: ${captured && log ? (await store()).displayPath(log) : 'not captured (no shell integration yet)'}`;
            }),
        );
        return text(rows.length ? rows.join('\n') : 'No terminals are open.');
      },
    }),
  );
}
