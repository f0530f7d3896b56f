// Runs every benchmark in test/bench/ (or those whose name contains an argument) one after another.
// Arguments after `--` go to each benchmark (e.g. a trajectories folder).
import { spawnSync } from 'node:child_process';
import { findFiles } from './lib/files';

const dashDash = process.argv.indexOf('--');
const filters = process.argv.slice(2, dashDash === -1 ? undefined : dashDash);
const passThrough = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
const files = findFiles('test/bench', '.bench.ts').filter(
  (f) => filters.length === 0 || filters.some((x) => f.includes(x)),
);
if (files.length === 0) {
  console.error('No benchmarks match.');
  process.exit(1);
}
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', f, ...passThrough], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
console.log(`\n${files.length - failed} benchmarks ran, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
