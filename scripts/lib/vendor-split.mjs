// The big libraries the features bundle uses only on some paths (a provider's SDK, MCP, xterm, YAML,
// RE2) are built as their own files in dist/vendor/ and loaded on first use. Lazy evaluation inside one
// bundle (bundle-laziness.test.ts) was not enough: V8 still reads, pre-parses and keeps the source of
// the whole file for the life of the window, so a session with the OpenAI-compatible endpoint and no MCP
// server paid ~10 MB of RSS for SDKs it never ran (measured: test/bench/memory.bench.ts, README).
//
// In the features build, each import of a vendored module becomes a small shim that requires
// `./vendor/<group>.js` and picks the module out of it; a group's file holds every module of that group
// the features import, so the MCP SDK's modules share one copy of its code. ajv is not vendored: every
// agent session checks tool arguments with it (the MCP SDK's file has its own copy).

/** Each group's file and the module specifiers the features bundle imports from it. */
export const VENDOR = {
  anthropic: ['@anthropic-ai/sdk'],
  openai: ['openai'],
  mcp: [
    '@modelcontextprotocol/sdk/client/auth.js',
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/client/stdio.js',
    '@modelcontextprotocol/sdk/client/streamableHttp.js',
    '@modelcontextprotocol/sdk/types.js',
  ],
  xterm: ['@xterm/headless'],
  yaml: ['yaml'],
  re2js: ['re2js'],
};

/** Packages that must not end up inside the features bundle itself. */
const PACKAGES = [
  '@anthropic-ai/sdk',
  'openai',
  '@modelcontextprotocol/sdk',
  'zod',
  '@xterm/headless',
  'yaml',
  're2js',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const PACKAGE_IMPORT = new RegExp(`^(?:${PACKAGES.map(escape).join('|')})(?:/.*)?$`);
const groupOf = (spec) => Object.keys(VENDOR).find((g) => VENDOR[g].includes(spec));

/** The vendored package `file` (a path in node_modules) belongs to, if any. */
function vendoredPackage(file) {
  const norm = file.replace(/\\/g, '/');
  return PACKAGES.find((p) => norm.includes(`node_modules/${p}/`));
}

/** esbuild plugin for the features bundle: vendored imports become shims over dist/vendor/<group>.js. */
export function vendorSplit() {
  return {
    name: 'vendor-split',
    setup(build) {
      build.onResolve({ filter: PACKAGE_IMPORT }, (args) => {
        // A package's own imports stay as they are; only our code's imports are redirected.
        if (args.namespace !== 'file' || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        const group = groupOf(args.path);
        if (!group)
          return {
            errors: [
              { text: `${args.path} is not listed in VENDOR (scripts/lib/vendor-split.mjs): add it to its group` },
            ],
          };
        return { path: args.path, namespace: 'vendor-shim', pluginData: group };
      });
      build.onResolve({ filter: /^\.\/vendor\//, namespace: 'vendor-shim' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'vendor-shim' }, (args) => ({
        loader: 'js',
        // __esModule: the features' `import X from` then takes the module's own default, as when bundled.
        contents: [
          `var m = require(${JSON.stringify(`./vendor/${args.pluginData}.js`)}).modules[${JSON.stringify(args.path)}];`,
          `module.exports = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(m), __esModule: { value: true } });`,
        ].join('\n'),
      }));
      build.onEnd((result) => {
        const inside = new Set();
        for (const file of Object.keys(result.metafile?.inputs ?? {})) {
          const p = vendoredPackage(file);
          if (p) inside.add(p);
        }
        for (const p of inside)
          result.errors.push({
            text: `${p} was bundled into the features bundle (reached from another package?): it belongs in dist/vendor/`,
          });
      });
    },
  };
}

/** One build per group: an ES module whose `modules` maps each specifier to that module's namespace. */
export function vendorBuilds(common, outdir) {
  return Object.entries(VENDOR).map(([group, specs]) => ({
    ...common,
    stdin: {
      contents: [
        ...specs.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`),
        `export const modules = { ${specs.map((s, i) => `${JSON.stringify(s)}: m${i}`).join(', ')} };`,
      ].join('\n'),
      resolveDir: process.cwd(),
      sourcefile: `vendor-${group}.js`,
    },
    outfile: `${outdir}/vendor/${group}.js`,
  }));
}
