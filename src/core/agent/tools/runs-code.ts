// Files in a workspace that make tools run programs when they are next opened, built or entered: an
// edit to them is approved knowing that (the approval says so). A file is judged by the path the model
// wrote and by where a link there leads (a committed `docs/x.json -> ../.vscode/tasks.json`), and
// regardless of case (on macOS and Windows `.ENVRC` is `.envrc`), in any folder: direnv runs the
// `.envrc` of whatever folder a shell enters, a folder of a multi-root workspace (or one opened on its
// own) has its own `.vscode`, and a repository inside the workspace its own hooks and workflows.

import { lookAlikeText } from './look-alike';
import { visibleLine } from './mcp';

/**
 * Files a shell runs on entering their folder (or one below it), by their path from that folder
 * (entered-folder.ts looks for them there). mise's project config files: mise.toml, .mise.toml,
 * mise.local.toml, mise.<env>.toml, .config/mise.toml, .config/mise/config.toml,
 * .config/mise/conf.d/*.toml, .mise/config.toml, mise/config.toml, and `.rtx.toml` of its earlier name:
 * their [hooks] and `[env]` scripts (`_.source`) run on entering the folder, and mise trusts a file by
 * its path, not what it holds. `.tool-versions` only names versions.
 */
export const ON_ENTER: readonly [RegExp, string][] = [
  [/^\.envrc$/i, 'direnv runs it when a shell enters the folder'],
  [
    /^(?:\.?(?:mise|rtx)(?:\.[\w-]+)?\.toml|\.config\/mise\.toml|(?:\.?config\/mise|\.mise|mise)\/(?:config|mise)(?:\.[\w-]+)?\.toml|\.config\/mise\/conf\.d\/[^/]+\.toml)$/i,
    'mise runs its hooks and env scripts when a shell enters the folder',
  ],
];

/** `re` (anchored with `^`) at the workspace root or in any folder below it. */
const inAnyFolder = (re: RegExp): RegExp => new RegExp(`(?:^|/)${re.source.slice(1)}`, re.flags);

const FILES: [RegExp, string][] = [
  [
    /(^|\/)\.vscode\/(settings|tasks|launch)\.json$|\.code-workspace$/i,
    'VS Code reads it: it can name programs that run in this workspace',
  ],
  ...ON_ENTER.map(([re, why]): [RegExp, string] => [inAnyFolder(re), why]),
  [/(^|\/)\.husky\//i, 'a git hook (husky): git runs it'],
  // Package-manager settings: a program every npm/yarn/pnpm/bun command then runs (package-scripts.ts).
  [
    /(^|\/)(\.npmrc|\.yarnrc(\.yml)?|\.pnpmfile\.[cm]?js|bunfig\.toml)$/i,
    'the package manager reads it: it can name a program every npm, yarn, pnpm or bun command runs',
  ],
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
 * An edit's approval title: the file, why editing it can make a program run, and look-alike letters in
 * its path (`src/cоnfig.ts` with a Cyrillic о is a new file beside `src/config.ts`, not an edit of it),
 * naming the existing file it imitates when there is one.
 */
export function editApprovalTitle(request: { display: string; target?: string; imitates?: string }): string {
  const { name, runsCode: why } = editedFile(request);
  const lookAlike = lookAlikeText(name);
  const imitates =
    request.imitates === undefined
      ? ''
      : ` Careful: ${request.display} is not the existing file ${request.imitates} it reads as.`;
  return `Apply this edit to ${name}?${why ? ` Careful: ${why}.` : ''}${imitates}${lookAlike ? ` Careful: ${lookAlike}.` : ''}`;
}

/**
 * The diff editor's tab title for an edit: one line, the model's path with invisible and
 * direction-changing characters shown as `\u{…}`, as the approval's title shows it (approvals.ts).
 */
export function editDiffTitle(request: { display: string; target?: string }): string {
  return `${visibleLine(editedFile(request).name)} ↔ proposed edit`;
}
