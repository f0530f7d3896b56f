// The built CLI loads only the command it runs: the entry plus that command's own bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { cliBuilds } from '../../scripts/lib/cli-bundles.mjs';

const nodeCommon = {
  bundle: true,
  platform: 'node' as const,
  format: 'cjs' as const,
  target: 'node20',
  logLevel: 'warning' as const,
  external: ['vscode', '@vscode/ripgrep'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

test('each command runs from its own bundle; the entry loads no other command', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'cd-cli-bundles-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await Promise.all(cliBuilds(nodeCommon, out).map((b) => build(b)));
  // A preload that prints, at exit, every file of the build that node loaded.
  const preload = path.join(out, 'record-loads.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(out + path.sep)})).map((f) => f.slice(${out.length + 1})).sort())));`,
  );
  const loaded = (...args: string[]): { files: string[]; stdout: string; status: number | null } => {
    const r = spawnSync(process.execPath, ['--require', preload, path.join(out, 'cli.js'), ...args], {
      encoding: 'utf8',
      cwd: out,
    });
    const m = /LOADED (\[.*\])/.exec(r.stderr);
    assert.ok(m, r.stderr);
    return {
      files: (JSON.parse(m[1]!) as string[]).filter((f) => f !== 'record-loads.cjs'),
      stdout: r.stdout,
      status: r.status,
    };
  };
  const help = loaded('--help');
  assert.deepEqual(help.files, ['cli.js']);
  assert.match(help.stdout, /grep .*\n.*mcp .*\n.*redact .*\n.*replay /);
  for (const name of ['grep', 'mcp', 'replay']) {
    const r = loaded(name, '--help');
    assert.equal(r.status, 0);
    assert.deepEqual(r.files, ['cli-commands/' + name + '.js', 'cli.js'], name);
    assert.match(r.stdout, new RegExp(`Usage: context-desk ${name}`));
  }
  // A command that runs (not just its help) still loads nothing else.
  const grep = loaded('grep', 'x', '--dir', path.join(out, 'no-store'));
  assert.equal(grep.status, 2);
  assert.deepEqual(grep.files, ['cli-commands/grep.js', 'cli.js']);
});
