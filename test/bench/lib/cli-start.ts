// `context-desk grep` as a user runs it: the built CLI (dist/cli.js, its command in its own bundle)
// against rg alone plus a bare `node -e 0`, and against the same CLI bundled as one file (how it was
// built before), all interleaved in one run. Ratios per round: median (min-max).
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { nodeBundle } from '../../../scripts/lib/node-bundle.mjs';
import { ripgrepArgs } from '../../../src/core/search/ripgrep';
import { interleaved, median, spread, timeProcess } from './process-time';

const ROUNDS = 15;

interface Query {
  name: string;
  pattern: string;
  fixed?: boolean;
  ignoreCase?: boolean;
}

/** The CLI as one CJS file, the way esbuild.mjs built it before the per-command bundles. */
async function oneFileCli(dir: string): Promise<string> {
  await build({ ...nodeBundle, entryPoints: { cli: 'src/cli/main.ts' }, outdir: dir, logLevel: 'warning' });
  return path.join(dir, 'cli.js');
}

export async function wholeCommand(rg: string, root: string, queries: readonly Query[]): Promise<void> {
  const cli = path.resolve('dist/cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const tmp = await mkdtemp(path.join(tmpdir(), 'cd-bench-cli-'));
  try {
    const single = await oneFileCli(tmp);
    console.log(
      `\nWhole command, ${ROUNDS} interleaved rounds: context-desk grep (${path.relative('.', cli)}) vs rg + node -e 0, and vs the one-file CLI`,
    );
    console.log(
      'query                          | node -e 0 |    rg    | cli     | cli / (rg + node)   | one-file | cli / one-file',
    );
    let worst = 0;
    for (const q of queries) {
      const flags = [...(q.fixed ? ['-F'] : []), ...(q.ignoreCase ? ['-i'] : [])];
      const grepArgs = ['grep', q.pattern, '--dir', root, '--in', 'terminals', ...flags];
      const rgArgs = ripgrepArgs({
        pattern: q.pattern,
        paths: [path.join(root, 'terminals')],
        fixed: q.fixed,
        caseMode: q.ignoreCase ? 'ignore' : 'sensitive',
      });
      const t = await interleaved(ROUNDS, {
        node: () => timeProcess({ command: process.execPath, args: ['-e', '0'] }),
        rg: () => timeProcess({ command: rg, args: rgArgs }),
        cli: () => timeProcess({ command: process.execPath, args: [cli, ...grepArgs] }),
        single: () => timeProcess({ command: process.execPath, args: [single, ...grepArgs] }),
      });
      const vsBase = t.cli.map((c, i) => c / (t.node[i]! + t.rg[i]!));
      const vsSingle = t.cli.map((c, i) => c / t.single[i]!);
      worst = Math.max(worst, median(vsBase));
      const ms = (xs: number[]): string => `${median(xs).toFixed(0).padStart(5)} ms`;
      console.log(
        `${q.name.padEnd(30)} | ${ms(t.node)}  | ${ms(t.rg)} | ${ms(t.cli)} | ${spread(vsBase).padEnd(19)} | ${ms(t.single)} | ${spread(vsSingle)}`,
      );
    }
    console.log(
      `worst median ratio of context-desk grep vs rg + node: ${worst.toFixed(2)}x (goal <= 1.2x: ${worst <= 1.2 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
