// Builds the extension (node, cjs), the webview (browser) and the CLI, plus the integration test
// bundles. Flags: --watch, --production (minify, no source maps for tests).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, existsSync, rmSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cliBuilds } from './scripts/lib/cli-bundles.mjs';
import { nodeBundle } from './scripts/lib/node-bundle.mjs';
import { vendorBuilds, vendorSplit } from './scripts/lib/vendor-split.mjs';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  metafile: true,
  legalComments: 'none',
};

const nodeCommon = { ...common, ...nodeBundle };

/** Integration test suites run inside the real VS Code; mocha is loaded from node_modules at run time. */
function integrationEntries() {
  const dir = 'test/integration';
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

const builds = [
  {
    ...nodeCommon,
    entryPoints: { extension: 'src/extension/extension.ts', features: 'src/extension/features.ts' },
    outdir: 'dist',
    // dist/features.js is loaded on first use (src/extension/lazy.ts), never bundled into extension.js;
    // the big libraries it uses on some paths only are in dist/vendor/, loaded on their first use.
    external: [...nodeCommon.external, './features.js'],
    plugins: [vendorSplit()],
  },
  ...vendorBuilds(nodeCommon, 'dist'),
  ...cliBuilds(nodeCommon, 'dist'),
  {
    ...common,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: 'dist',
    loader: { '.css': 'text' },
  },
];
if (!production) {
  builds.push({
    ...nodeCommon,
    entryPoints: integrationEntries(),
    outdir: 'out/test/integration',
    external: [...nodeCommon.external, 'mocha'],
  });
}

/** Files the bundles load at run time: tiktoken's WASM and bindings, and the codicon font. */
function copyAssets() {
  mkdirSync('dist/codicons', { recursive: true });
  const codicons = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(join(codicons, f), join('dist/codicons', f));
  // tiktoken's WASM and the bindings each WASM generation evaluates afresh (src/core/tokens/wasm.ts).
  const tiktoken = dirname(require.resolve('tiktoken/tiktoken_bg.wasm'));
  for (const f of ['tiktoken_bg.wasm', 'tiktoken_bg.cjs']) cpSync(join(tiktoken, f), join('dist', f));
  // Its ranks, for the exact count of long pieces (src/core/tokens/bpe.ts).
  for (const f of ['o200k_base.json', 'cl100k_base.json']) cpSync(join(tiktoken, 'encoders', f), join('dist', f));
}

/**
 * V8 keeps a script's source in memory as Latin-1 only if every character fits; one em dash in a
 * comment or regex and the whole bundle is held as UTF-16, twice the bytes (measured: features.js).
 * esbuild escapes strings but not regular expression literals, so a build with one fails.
 */
function checkAscii(results) {
  const bad = [];
  for (const r of results)
    for (const file of Object.keys(r.metafile?.outputs ?? {}))
      if (
        file.endsWith('.js') &&
        !file.startsWith('out/') &&
        !file.endsWith('webview.js') &&
        /[^\x00-\x7f]/.test(readFileSync(file, 'utf8'))
      ) {
        const text = readFileSync(file, 'utf8');
        const at = text.search(/[^\x00-\x7f]/);
        bad.push(`${file}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`);
      }
  if (bad.length === 0) return;
  console.error('✘ non-ASCII characters in node bundles: V8 would hold them as UTF-16 (2x memory).');
  console.error('  Escape them in the source (\\u2019 in a regular expression):');
  for (const b of bad) console.error(`  ${b}`);
  process.exit(1);
}

function printSizes(results) {
  const rows = [];
  for (const r of results) {
    for (const [file, info] of Object.entries(r.metafile?.outputs ?? {})) {
      if (!file.endsWith('.map')) rows.push([file, info.bytes]);
    }
  }
  rows.sort((a, b) => a[0].localeCompare(b[0]));
  for (const [file, bytes] of rows) console.log(`  ${file.padEnd(48)} ${(bytes / 1024).toFixed(1).padStart(9)} KB`);
}

if (!watch) {
  rmSync('out/test', { recursive: true, force: true });
}

/** Lines the watch task's problem matcher waits for (.vscode/tasks.json). */
const watchLog = {
  name: 'watch-log',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((r) => {
      for (const e of r.errors)
        console.error(`✘ [ERROR] ${e.text} ${e.location ? `${e.location.file}:${e.location.line}` : ''}`);
      console.log('[watch] build finished');
    });
  },
};

if (watch) {
  const contexts = await Promise.all(
    builds.map((b) => esbuild.context({ ...b, plugins: [...(b.plugins ?? []), watchLog] })),
  );
  copyAssets();
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] watching for changes (Ctrl-C stops)');
} else {
  const started = Date.now();
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  copyAssets();
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
  console.log(`Built in ${Date.now() - started} ms${production ? ' (production)' : ''}:`);
  printSizes(results);
  if (production) checkAscii(results);
}
