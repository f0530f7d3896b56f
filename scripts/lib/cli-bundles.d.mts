import type { BuildOptions } from 'esbuild';

/** The CLI's esbuild options: the entry and the per-command bundles (see cli-bundles.mjs). */
export function cliBuilds(nodeCommon: BuildOptions & { banner: { js: string } }, outdir: string): BuildOptions[];
