// Runs the unit tests with node's own test runner (tsx compiles TypeScript on the fly).
// Optional arguments narrow the run to files whose path contains one of them.
// Two files run at once: node 20 defaults to (cores - 1), which is one on a 2-core CI machine, and each
// file's start-up (tsx compiling its imports) then runs alone; measured 525-558 s serial, 368 s with two.
import { spawnSync } from 'node:child_process';
import { findFiles } from './lib/files';

const filters = process.argv.slice(2);
const files = findFiles('test/unit', '.test.ts').filter(
  (f) => filters.length === 0 || filters.some((x) => f.includes(x)),
);
if (files.length === 0) {
  console.error(`No unit test files match ${filters.join(', ') || 'test/unit/**/*.test.ts'}`);
  process.exit(1);
}
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  {
    stdio: 'inherit',
  },
);
process.exit(r.status ?? 1);
