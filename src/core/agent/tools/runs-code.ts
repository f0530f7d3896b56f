// Files in a workspace that make tools run programs when they are next opened, built or entered: an
// edit to them is approved knowing that (the approval says so). A file is judged by the path the model
// wrote and by where a link there leads (a committed `docs/x.json -> ../.vscode/tasks.json`), and
// regardless of case (on macOS and Windows `.ENVRC` is `.envrc`), in any folder: direnv runs the
// `.envrc` of whatever folder a shell enters, a folder of a multi-root workspace (or one opened on its
// own) has its own `.vscode`, and a repository inside the workspace its own hooks and workflows.

import { visibleLine } from './mcp';

// `(^|\/)`: at the workspace root or in any folder below it.
const FILES: [RegExp, string][] = [
  [
    /(^|\/)\.vscode\/(settings|tasks|launch)\.json$|\.code-workspace$/i,
    'VS Code reads it: it can name programs that run in this workspace',
  ],
  [/(^|\/)\.envrc$/i, 'direnv runs it when a shell enters the folder'],
  // mise.toml, .mise.toml, mise.local.toml, mise.<env>.toml, .mise/config.toml, .config/mise.toml, …:
  // its [hooks] run on entering the folder, and mise trusts a file by its path, not what it holds.
  [
    /(^|\/)\.?mise(\.[\w-]+)?\.toml$|(^|\/)\.?(config\/)?mise\/config(\.[\w-]+)?\.toml$|(^|\/)\.config\/mise\.toml$/i,
    'mise runs its hooks when a shell enters the folder',
  ],
  [/(^|\/)\.husky\//i, 'a git hook (husky): git runs it'],
  [/(^|\/)\.devcontainer(\/|\.json$)/i, 'the dev container is built from it'],
  [/(^|\/)\.github\/workflows\//i, 'CI runs it with the repository secrets'],
];

/** Why an edit to `display` (a workspace-relative path with `/`) can make a program run, or undefined. */
export function runsCode(display: string): string | undefined {
  return FILES.find(([re]) => re.test(display))?.[1];
}

/**
 * How an edit's file is named to the user, and why it can make a program run (judged on the path as
 * written and on where a link leads): `docs/build-matrix.json → .vscode/tasks.json` when they differ.
 */
export function editedFile(request: { display: string; target?: string }): { name: string; runsCode?: string } {
  const name = request.target === undefined ? request.display : `${request.display} → ${request.target}`;
  const why = runsCode(request.display) ?? (request.target === undefined ? undefined : runsCode(request.target));
  return why === undefined ? { name } : { name, runsCode: why };
}

/**
 * The diff editor's tab title for an edit: one line, the model's path with invisible and
 * direction-changing characters shown as `\u{…}`, as the approval's title shows it (approvals.ts).
 */
export function editDiffTitle(request: { display: string; target?: string }): string {
  return `${visibleLine(editedFile(request).name)} ↔ proposed edit`;
}
