// Runs VS Code's extension-test command line (what @vscode/test-electron passes to a VS Code
// executable) in the code-server harness: --extensionDevelopmentPath, --extensionTestsPath and the
// folder to open; the profile flags (--user-data-dir, --extensions-dir, ...) are the harness's own
// business. Exits with the tests' exit code. The extension host inherits this process's environment,
// which carries test-cli's VSCODE_TEST_OPTIONS to its runner.
import { format } from 'node:util';
import { openWorkbench } from './lib/workbench';
import { runMain } from './lib/cleanup';

const TIMEOUT_MS = Number(process.env.CONTEXT_DESK_INTEGRATION_TIMEOUT_MS ?? 600_000);

export function parseVscodeTestArgs(argv: string[]): { extensionPath: string; testsPath: string; folder: string } {
  let extensionPath: string | undefined;
  let testsPath: string | undefined;
  let folder: string | undefined;
  for (const a of argv) {
    if (a.startsWith('--extensionDevelopmentPath=')) extensionPath = a.slice(a.indexOf('=') + 1);
    else if (a.startsWith('--extensionTestsPath=')) testsPath = a.slice(a.indexOf('=') + 1);
    else if (!a.startsWith('-')) folder = a;
  }
  if (!extensionPath || !testsPath)
    throw new Error(`expected --extensionDevelopmentPath= and --extensionTestsPath=, got: ${argv.join(' ')}`);
  if (!folder) throw new Error('expected a folder to open (workspaceFolder in .vscode-test.mjs)');
  return { extensionPath, testsPath, folder };
}

async function main(): Promise<number> {
  const { extensionPath, testsPath, folder } = parseVscodeTestArgs(process.argv.slice(2));
  let settle: (code: number) => void = () => undefined;
  const done = new Promise<number>((r) => (settle = r));
  await openWorkbench({ folder, extensionPath, testsPath }, async (page) => {
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => console.log(format(...args)));
    await page.exposeFunction('codeAutomationExit', (code: number) => settle(code));
  });
  const timer = setTimeout(() => {
    console.error(`the tests did not finish within ${TIMEOUT_MS / 1000} s`);
    settle(1);
  }, TIMEOUT_MS);
  const code = await done;
  clearTimeout(timer);
  return code;
}

if (require.main === module) runMain(main);
