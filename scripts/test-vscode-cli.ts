// Proves .vscode-test.mjs (the standard @vscode/test-cli config) where nothing can be downloaded:
// `vscode-test` runs one integration suite through test-electron, whose "VS Code" is the forwarding
// script into the code-server harness. The full suites run in `npm run test:integration`.
import { spawn } from 'node:child_process';
import { runMain } from './lib/cleanup';

const SUITE = 'out/test/integration/activation.test.js';

function main(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vscode-test', '--run', SUITE], {
      env: { ...process.env, CONTEXT_DESK_VSCODE: 'code-server' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      process.stdout.write(b);
    });
    child.on('close', (code) => {
      const passed = Number(/(\d+) passing/.exec(out)?.[1] ?? 0);
      const failed = Number(/(\d+) failing/.exec(out)?.[1] ?? 0);
      console.log(`${passed} passed, ${failed} failed`);
      resolve(code === 0 && passed > 0 && failed === 0 ? 0 : 1);
    });
  });
}

runMain(main);
