// The text of the prompt that asks before a workspace's MCP servers start: each server with what
// starting it does (program, arguments and environment, or URL and headers), secrets redacted and invisible or
// direction-changing characters shown as \u{…}, so what is read is what runs.
import { visibleName, visibleText } from '../../core/agent/tools/mcp';
import type { McpServerConfig } from '../../core/mcp/types';
import { redactSecretsSync } from '../../core/store/sanitize/secrets';

const SHOWN = 3;
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

export function consentPrompt(configs: readonly McpServerConfig[], relative: (file: string) => string): string {
  const shown = configs
    .slice(0, SHOWN)
    .map((c) => `"${visibleName(c.name)}" (${visibleText(relative(c.source))}) ${whatStartingDoes(c)}`);
  const more = configs.length > SHOWN ? `; and ${configs.length - SHOWN} more` : '';
  return `Context Desk: this workspace defines MCP servers that have not been allowed to start: ${shown.join('; ')}${more}. Start them only if you trust whoever wrote this configuration.`;
}
