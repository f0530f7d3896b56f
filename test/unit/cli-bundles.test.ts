// The built CLI loads only the command it runs: the entry plus that command's own bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { cliBuilds } from '../../scripts/lib/cli-bundles.mjs';
import { nodeBundle } from '../../scripts/lib/node-bundle.mjs';
import { runCli } from '../support/cli';

const nodeCommon = { ...nodeBundle, logLevel: 'warning' as const };

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

test('the built CLI: grep lets rg write to a file itself, the same lines as through a stream; a closed pipe ends it quietly', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'cd-cli-grep-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await Promise.all(cliBuilds(nodeCommon, out).map((b) => build(b)));
  const ws = path.join(out, 'ws');
  const logs = path.join(ws, '.context-desk', 'terminals');
  mkdirSync(logs, { recursive: true });
  const lines = Array.from({ length: 50_000 }, (_, i) => `${i % 3 ? 'INFO' : 'ERROR'} item ${i}${i % 5 ? '' : '\r'}\n`);
  writeFileSync(path.join(logs, 'bash-1.log'), lines.join(''));
  writeFileSync(path.join(logs, 'we:ird.log'), 'ERROR: colon in the name\n');
  const cli = (args: string[], stdout: 'pipe' | number) =>
    spawnSync(process.execPath, [path.join(out, 'cli.js'), 'grep', ...args], {
      cwd: ws,
      stdio: ['ignore', stdout, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  for (const pattern of ['ERROR', 'no such text', '(unclosed']) {
    // Standard output a file: rg writes there itself. Through the test's stream: the in-process path.
    const file = path.join(out, 'out.txt');
    const fd = openSync(file, 'w');
    const direct = cli([pattern], fd);
    closeSync(fd);
    const inProcess = await runCli(['grep', pattern], { cwd: ws });
    assert.equal(direct.status, inProcess.code, `${pattern}: ${direct.stderr}`);
    // (The built CLI in a temporary folder finds the system's rg, whose messages differ in detail.)
    for (const err of [direct.stderr, inProcess.err])
      if (pattern.startsWith('('))
        assert.match(err, /^context-desk grep: Not a valid regular expression: unclosed group/);
      else assert.equal(err, '');
    const sorted = (s: string): string[] => s.split(/(?<=\n)/).sort();
    assert.deepEqual(sorted(readFileSync(file, 'utf8')), sorted(inProcess.out), pattern);
  }
  const errors = lines.filter((l) => l.startsWith('ERROR')).length;
  assert.equal(
    (await runCli(['grep', 'ERROR', '--in', 'terminals'], { cwd: ws })).out.split('\n').length - 1,
    errors + 1,
  );
  // `| head -1`, through node (--max) and straight from rg: exit 0, nothing on stderr.
  for (const extra of [['--max', '1000000'], []]) {
    const r = spawnSync(
      '/bin/sh',
      [
        '-c',
        `"${process.execPath}" "${path.join(out, 'cli.js')}" grep ERROR ${extra.join(' ')} | head -1; echo "exit $?"`,
      ],
      { cwd: ws, encoding: 'utf8' },
    );
    assert.match(r.stdout, /^\.context-desk\/terminals\/\S+:\d+:ERROR.*\nexit 0\n$/, extra.join(' '));
    assert.equal(r.stderr, '', extra.join(' '));
  }
});
