import type { BuildOptions, Plugin } from 'esbuild';

/** Each vendored group and the module specifiers the features bundle imports from it (see vendor-split.mjs). */
export declare const VENDOR: Record<string, string[]>;
/** esbuild plugin: vendored imports become shims over ./vendor/<group>.js. */
export declare function vendorSplit(): Plugin;
/** One build per group, writing `<outdir>/vendor/<group>.js`. */
export declare function vendorBuilds(common: BuildOptions, outdir: string): BuildOptions[];
