import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../support/cli';
import { version } from '../../package.json';

test('--version prints the package version', async () => {
  const r = await runCli(['--version']);
  assert.equal(r.code, 0);
  assert.equal(r.out, `${version}\n`);
});

test('--help prints usage and exits 0', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.out, /Usage: context-desk <command>/);
  assert.match(r.out, /replay  +replay agent trajectories/, 'commands are listed with their summaries');
});

test('no arguments prints usage and exits 2', async () => {
  const r = await runCli([]);
  assert.equal(r.code, 2);
  assert.match(r.out, /Usage:/);
});

test('an unknown command is named in the error', async () => {
  const r = await runCli(['frobnicate']);
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown command 'frobnicate'/);
});
