// The extensionTestsPath entry: VS Code calls run() inside the real extension host.
import * as path from 'node:path';
import * as fs from 'node:fs';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.CONTEXT_DESK_TEST_GREP;
  if (grep) mocha.grep(grep);
  const dir = __dirname;
  // The hostile-workspace suite runs in its own window (workspace trust on, folder untrusted).
  const suffix = process.env.CONTEXT_DESK_SUITE === 'hostile' ? '.hostile.js' : '.test.js';
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort())
    mocha.addFile(path.join(dir, f));
  const results = { passed: 0, failed: 0, failures: [] as { title: string; error: string }[] };
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', () => results.passed++);
    runner.on('fail', (test, err: Error) => {
      results.failed++;
      results.failures.push({ title: test.fullTitle(), error: err.stack ?? err.message });
    });
  });
  const out = process.env.CONTEXT_DESK_TEST_RESULTS;
  if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
  console.log(`integration: ${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0 || results.passed === 0)
    throw new Error(`${results.failed} of ${results.passed + results.failed} integration tests failed`);
}
