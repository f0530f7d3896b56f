// How a stdio server's command is started: apart from connection.ts so that naming it does not load the
// MCP SDK (connection.ts is evaluated on the first connect; see sdk-modules.ts).

/**
 * Decides how a stdio command is started. The CLI maps `node` to `process.execPath`; the extension host
 * may be Electron, so the glue maps it to `node` from PATH or adds `ELECTRON_RUN_AS_NODE=1`.
 */
export type CommandResolver = (
  command: string,
  args: readonly string[],
) => { command: string; args: string[]; env?: Record<string, string> };

export const identityCommand: CommandResolver = (command, args) => ({ command, args: [...args] });
