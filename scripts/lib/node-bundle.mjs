// esbuild options every node bundle shares (the extension, its features, the CLI), also used by the tests
// that build a bundle to check what it loads, so they check what users run.
export const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Without it esbuild 0.28 emits Uint8Array.fromBase64 in the binary loader, which node 20 lacks.
  target: 'node20',
  // @vscode/ripgrep is ESM and finds its binary relative to import.meta.url: keep it external.
  external: ['vscode', '@vscode/ripgrep'],
  // Lets bundled ESM code that reads import.meta.url work in CJS.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};
