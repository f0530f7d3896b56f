// The MCP SDK (with zod, about 0.4 MB of the features bundle) is evaluated on the first connect, not when
// manager.ts is loaded: a window or CLI command with no server to connect never pays for it. esbuild
// bundles a require()d module as an initializer run on the first call (test/unit/bundle-laziness.test.ts).
import type * as ConnectionModule from './connection';
import type * as ErrorsModule from './errors';

/** connection.ts and errors.ts, the two modules that import the SDK. */
export function mcpSdkModules(): typeof ConnectionModule & typeof ErrorsModule {
  /* eslint-disable @typescript-eslint/no-require-imports -- evaluated on first use, on purpose */
  return {
    ...(require('./connection') as typeof ConnectionModule),
    ...(require('./errors') as typeof ErrorsModule),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}
