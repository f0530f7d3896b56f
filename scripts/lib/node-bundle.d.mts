import type { BuildOptions } from 'esbuild';

/** esbuild options every node bundle shares (see node-bundle.mjs). */
export declare const nodeBundle: BuildOptions & {
  bundle: true;
  platform: 'node';
  format: 'cjs';
  external: string[];
  banner: { js: string };
};
