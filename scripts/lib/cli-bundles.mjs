// The CLI's bundles: a small entry (argument parsing, the command registry) and one bundle per file
// of src/cli/commands/ (but the registry) in <outdir>/cli-commands/, required when its command runs:
// `context-desk grep` never parses the replay or MCP code. Shared by esbuild.mjs and the test that
// checks what a command loads. (esbuild's code splitting needs ESM output; measured, the ESM entry
// started slower than these CJS bundles: see README, Performance.)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const CLI_COMMANDS = 'src/cli/commands';

/** `cli-commands/<name>` -> `src/cli/commands/<name>.ts` for every command module. */
function cliCommandEntries() {
  const entries = {};
  for (const f of readdirSync(CLI_COMMANDS))
    if (f.endsWith('.ts') && f !== 'index.ts') entries[`cli-commands/${f.slice(0, -3)}`] = join(CLI_COMMANDS, f);
  return entries;
}

/**
 * The registry's `import('./name')` becomes a plain run-time `require('./cli-commands/name.js')` of that
 * command's own bundle (a stub module in between, so node's CJS loader does it, not the ESM one).
 */
const cliCommandsExternal = {
  name: 'cli-commands-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer.endsWith(join(CLI_COMMANDS, 'index.ts'))) return undefined;
      return { path: args.path.slice(2), namespace: 'cli-command' };
    });
    build.onLoad({ filter: /.*/, namespace: 'cli-command' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`./cli-commands/${args.path}.js`)});`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/cli-commands\//, namespace: 'cli-command' }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

/**
 * The CLI's esbuild options: the entry and the per-command bundles.
 * @param {import('esbuild').BuildOptions & { banner: { js: string } }} nodeCommon options shared by node bundles
 * @param {string} outdir
 * @returns {import('esbuild').BuildOptions[]}
 */
export function cliBuilds(nodeCommon, outdir) {
  return [
    {
      ...nodeCommon,
      entryPoints: { cli: 'src/cli/main.ts' },
      outdir,
      banner: { js: '#!/usr/bin/env node\n' + nodeCommon.banner.js },
      plugins: [cliCommandsExternal],
    },
    { ...nodeCommon, entryPoints: cliCommandEntries(), outdir },
  ];
}
