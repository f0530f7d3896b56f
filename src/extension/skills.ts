// Agent Skills in VS Code: discovery through the core, broken front matter shown as diagnostics on the
// SKILL.md, and re-discovery when a SKILL.md changes.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SkillRefresher, type DiscoveredSkills, type Skill } from '../core/skills';
import type { Logger } from '../core/ports';
import { SECTION } from './settings';

/** `contextDesk.skills.folders` by who set it: a workspace's folders are read only inside it. */
export interface SkillFolders {
  user: string[];
  workspace: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The setting's layers; Restricted Mode ignores the workspace's (restrictedConfigurations). */
export function skillFolderSettings(): SkillFolders {
  const i = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('skills.folders');
  const workspace = vscode.workspace.isTrusted
    ? [...strings(i?.workspaceValue), ...strings(i?.workspaceFolderValue)]
    : [];
  return { user: strings(i?.globalValue), workspace };
}

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
    private readonly logger: Logger,
    private readonly folders: () => SkillFolders = skillFolderSettings,
  ) {
    this.refresher = new SkillRefresher(() => {
      const folder = this.workspaceFolder();
      const { user, workspace } = this.folders();
      return {
        ...(folder ? { workspaceFolder: folder } : {}),
        home: os.homedir(),
        extraFolders: user,
        workspaceExtraFolders: workspace,
      };
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
