// The agent's workspace tools in one call: read_file, list_dir, grep, tail, and edit_file / run_command
// when the host provides their ports.
import type { AgentTool } from '../tool-registry';
import { listDirTool, readFileTool, tailTool } from './files';
import { grepTool, ripgrepPort, type GrepPort } from './grep';
import { editFileTool, runCommandTool, type CommandPort, type EditFilePort } from './host-ports';
import { PathGuard } from './paths';

export { PathGuard, type PathAccess, type PathRoots, type ResolvedPath } from './paths';
export { readFileTool, tailTool, listDirTool, lastLines } from './files';
export { grepTool, ripgrepPort, type GrepPort } from './grep';
export { editApprovalTitle, editDiffTitle, editedFile, runsCode } from './runs-code';
export { nonUtf8EditRefusal, nonUtf8EditRefusalOf, nonUtf8EditRefusalOfFile } from './edit-encoding';
export { commandApprovalTitle, foldersChangedTo, runsOnEntering } from './entered-folder';
export * from './host-ports';

export interface WorkspaceToolOptions {
  workspaceRoot: string;
  storeRoot?: string;
  /** Folders the agent may read but not change (skills outside the workspace). */
  readOnlyRoots?: readonly string[];
  grep?: GrepPort;
  /** VS Code's `env.appRoot`, to use its bundled ripgrep when no `grep` port is given. */
  appRoot?: string;
  edit?: EditFilePort;
  command?: CommandPort;
}

export function createWorkspaceTools(o: WorkspaceToolOptions): AgentTool[] {
  const guard = new PathGuard({
    workspaceRoot: o.workspaceRoot,
    ...(o.storeRoot ? { storeRoot: o.storeRoot } : {}),
    ...(o.readOnlyRoots ? { readOnlyRoots: o.readOnlyRoots } : {}),
  });
  const tools = [
    readFileTool(guard),
    listDirTool(guard),
    grepTool(guard, o.grep ?? ripgrepPort(o.appRoot ? { appRoot: o.appRoot } : {})),
    tailTool(guard),
  ];
  if (o.edit) tools.push(editFileTool(guard, o.edit));
  if (o.command) tools.push(runCommandTool(guard, o.command));
  return tools;
}
