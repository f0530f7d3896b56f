// The layer rules hold: src/core cannot import vscode (neither the compiler nor the linter lets it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';

const tsc = (project: string): { status: number | null; output: string } => {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit'], {
    encoding: 'utf8',
  });
  return { status: r.status, output: r.stdout + r.stderr };
};

/** The files tsc reports errors in. */
const errorFiles = (output: string): string[] =>
  [...new Set([...output.matchAll(/^(.+?)\(\d+,\d+\): error TS\d+/gm)].map((m) => m[1]!))].sort();

test('the core tsconfig refuses an import of vscode, and for that reason only', () => {
  const r = tsc('test/fixtures/layers/tsconfig.core.json');
  assert.notEqual(r.status, 0);
  assert.match(r.output, /src\/core must not import vscode/);
  // The guard and the file that imports it, nothing else (a broken config would show other errors).
  assert.deepEqual(
    errorFiles(r.output),
    ['src/core/guards/vscode.ts', 'test/fixtures/layers/core-imports-vscode.ts'],
    r.output,
  );
});

test('the same file compiles with the extension tsconfig (so the refusal is the rule, not a typo)', () => {
  const r = tsc('test/fixtures/layers/tsconfig.extension.json');
  assert.equal(r.status, 0, r.output);
});

test('ESLint reports an import of vscode in src/core and allows it in src/extension', async () => {
  const eslint = new ESLint();
  const code = readFileSync('test/fixtures/layers/core-imports-vscode.ts', 'utf8');
  const [inCore] = await eslint.lintText(code, { filePath: 'src/core/probe.ts' });
  assert.ok(
    inCore!.messages.some((m) => m.ruleId === 'no-restricted-imports'),
    'core import is reported',
  );
  const [inExtension] = await eslint.lintText(code, { filePath: 'src/extension/probe.ts' });
  assert.ok(!inExtension!.messages.some((m) => m.ruleId === 'no-restricted-imports'), 'extension import is allowed');
});

test('no file in src/core imports vscode: the core compiles cleanly with its own tsconfig', () => {
  const r = tsc('src/core/tsconfig.json');
  assert.equal(r.status, 0, r.output);
  assert.doesNotMatch(r.output, /must not import vscode/);
});
