// The ecosystem's standard test runner config (@vscode/test-cli + @vscode/test-electron): the
// Extension Test Runner in VS Code's Testing view and `npx vscode-test` read it. Build first
// (`npm run build`): the suites run from out/test/integration.
//   - Desktop: `npx vscode-test` downloads VS Code 1.100.3 (the oldest version the extension supports,
//     the one the code-server harness runs) into .vscode-test/ and runs every suite in it.
//   - Offline (here, CI): CONTEXT_DESK_VSCODE=code-server makes test-electron start
//     scripts/vscode-test-forward.sh instead, which hands the same arguments to the code-server
//     harness (scripts/lib/workbench.ts): the same config, no download.
import { defineConfig } from '@vscode/test-cli';
import { cpSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

// The suites write into their workspace: a fresh copy of the fixture (in the git-ignored .vscode-test/).
const workspace = resolve('.vscode-test/workspace');
rmSync(workspace, { recursive: true, force: true });
cpSync('test/fixtures/workspace', workspace, { recursive: true });

export default defineConfig({
  label: 'integration',
  files: 'out/test/integration/**/*.test.js',
  version: '1.100.3',
  workspaceFolder: workspace,
  mocha: { ui: 'bdd', timeout: 60_000 },
  ...(process.env.CONTEXT_DESK_VSCODE === 'code-server'
    ? { useInstallation: { fromPath: resolve('scripts/vscode-test-forward.sh') } }
    : {}),
});
