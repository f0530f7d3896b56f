// What makes an MCP server "the same server" for a choice the user made about it (Always allow): the
// program it runs or the URL it talks to, as its config file declares them. A `git pull` that points a
// server of the same name at another command or endpoint gets a new identity, so earlier choices do
// not carry over to it. Values of env variables and headers are left out (tokens rotate; the program
// stays the same), their names are in; consent to start a server takes env values too (`envValues`),
// those its env file sets included, since `NODE_OPTIONS` or `PATH` change what runs, and header values
// that read a variable (`${env:GITHUB_TOKEN}`), since they decide which of the user's secrets the
// server receives.
import { createHash } from 'node:crypto';
import type { McpServerConfig } from './types';

export function serverIdentity(config: McpServerConfig, options: { envValues?: boolean } = {}): string {
  const env = sorted(Object.entries(config.type === 'stdio' ? (config.env ?? {}) : {}));
  const shape =
    config.type === 'stdio'
      ? {
          type: config.type,
          source: config.source,
          command: config.command,
          args: config.args,
          cwd: config.cwd ?? null,
          envFile: config.envFile ?? null,
          env: options.envValues ? env : env.map(([name]) => name),
          // What the env file sets (as the sync read it), for consent: `NODE_OPTIONS` there changes what runs.
          ...(options.envValues && config.envFileContent
            ? { envFileContent: [config.envFileContent.file, sorted(Object.entries(config.envFileContent.vars))] }
            : {}),
        }
      : {
          type: config.type,
          source: config.source,
          url: config.url,
          headers: sorted(Object.entries(config.headers ?? {})).map(([name, value]) =>
            options.envValues && value.includes('${') ? [name, value] : name,
          ),
        };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
}

function sorted(entries: [string, string][]): [string, string][] {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
