// The MCP SDK (with zod, about 0.4 MB of the features bundle) is evaluated on the first connect, not when
// manager.ts is loaded: a window or CLI command with no server to connect never pays for it. esbuild
// bundles a require()d module as an initializer run on the first call (test/unit/bundle-laziness.test.ts).
import type * as ConnectionModule from './connection';
import type * as ErrorsModule from './errors';

export function connectionModule(): typeof ConnectionModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('./connection') as typeof ConnectionModule;
}

export function errorsModule(): typeof ErrorsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('./errors') as typeof ErrorsModule;
}
