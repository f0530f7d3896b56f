// Files in a workspace that make tools run programs when they are next opened, built or entered: an
// edit to them is approved knowing that (the approval says so).

const FILES: [RegExp, string][] = [
  [/^\.vscode\/(settings|tasks|launch)\.json$/i, 'VS Code reads it: it can name programs that run in this workspace'],
  [/^\.envrc$/, 'direnv runs it when a shell enters the folder'],
  [/^\.husky\//, 'a git hook (husky): git runs it'],
  [/^\.devcontainer\//, 'the dev container is built from it'],
  [/^\.github\/workflows\//, 'CI runs it with the repository secrets'],
];

/** Why an edit to `display` (a workspace-relative path with `/`) can make a program run, or undefined. */
export function runsCode(display: string): string | undefined {
  return FILES.find(([re]) => re.test(display))?.[1];
}
