// Agent Skills in VS Code: discovery through the core, broken front matter shown as diagnostics on the
// SKILL.md, and re-discovery when a SKILL.md changes.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SkillRefresher, type DiscoveredSkills, type Skill } from '../core/skills';
import type { Logger } from '../core/ports';

export class SkillsController implements vscode.Disposable {
  private current: Skill[] = [];
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('context-desk-skills');
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/SKILL.md');
  private readonly refresher: SkillRefresher;
  private applied: DiscoveredSkills | undefined;

  constructor(
    private readonly workspaceFolder: () => string | undefined,
    private readonly extraFolders: () => string[],
    private readonly logger: Logger,
  ) {
    this.refresher = new SkillRefresher(() => {
      const folder = this.workspaceFolder();
      return { ...(folder ? { workspaceFolder: folder } : {}), home: os.homedir(), extraFolders: this.extraFolders() };
    });
    const refresh = (): void => void this.refresh();
    this.watcher.onDidChange(refresh);
    this.watcher.onDidCreate(refresh);
    this.watcher.onDidDelete(refresh);
  }

  get skills(): readonly Skill[] {
    return this.current;
  }

  async refresh(): Promise<readonly Skill[]> {
    const found = await this.refresher.refresh();
    // Callers that shared a run get the same result: it is shown and logged once.
    if (found === this.applied) return this.current;
    this.applied = found;
    this.current = found.skills;
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of found.diagnostics) {
      const pos = new vscode.Position(Math.max(0, d.line - 1), Math.max(0, d.column - 1));
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(pos, pos),
        d.message,
        d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = 'Context Desk';
      byFile.set(d.file, [...(byFile.get(d.file) ?? []), diagnostic]);
      this.logger.warn(`Skill ${d.file}:${d.line}: ${d.message}`);
    }
    for (const [file, list] of byFile) this.diagnostics.set(vscode.Uri.file(file), list);
    this.changed.fire();
    return this.current;
  }

  dispose(): void {
    this.watcher.dispose();
    this.diagnostics.dispose();
    this.changed.dispose();
  }
}
