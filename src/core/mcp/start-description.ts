// What starting an MCP server does, in one line a person can judge before allowing it: the program,
// its arguments and environment, or the URL and headers; secrets redacted and invisible or
// direction-changing characters shown as \u{…}, so what is read is what runs. Shared by the
// extension's start prompt and the CLI.
import * as path from 'node:path';
import { visibleText } from '../agent/tools/mcp';
import { redactSecretsSync } from '../store/sanitize/secrets';
import type { McpServerConfig } from './types';

const MAX_LINE = 200;

export function whatStartingDoes(c: McpServerConfig): string {
  const env = Object.entries(c.type === 'stdio' ? (c.env ?? {}) : {}).map(([k, v]) => `${k}=${v}`);
  const what =
    c.type === 'stdio'
      ? `runs ${[c.command, ...c.args].join(' ')}${env.length ? ` (env: ${env.join(', ')})` : ''}`
      : `connects to ${c.url}${headers(c.headers)}`;
  const line = visibleText(redactSecretsSync(what).text.replace(/\s+/g, ' '));
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

/** Headers as sent: a value such as `${env:GITHUB_TOKEN}` hands that secret of the user's to the server. */
function headers(h: Record<string, string> | undefined): string {
  const all = Object.entries(h ?? {}).map(([k, v]) => `${k}: ${v}`);
  return all.length ? ` (headers: ${all.join(', ')})` : '';
}

/** Whether a server's config file lies inside `folder` (came with the workspace, e.g. a cloned `.mcp.json`). */
export function definedInFolder(config: McpServerConfig, folder: string | undefined): boolean {
  if (!folder || config.source === 'setting') return false;
  const rel = path.relative(folder, config.source);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
