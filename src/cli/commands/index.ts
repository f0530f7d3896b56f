// The registry of subcommands: name -> one-line summary and a lazy loader. Add one entry per command.
import type { Command } from '../command';

export interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

export const commands: Record<string, CommandEntry> = {
  grep: {
    summary: 'search terminal logs, stored tool outputs and chat history (ripgrep)',
    load: () => import('./grep').then((m) => m.default),
  },
  mcp: {
    summary: 'sync MCP tool descriptions into per-server folders; count their prompt tokens',
    load: () => import('./mcp').then((m) => m.default),
  },
  redact: {
    summary: 'redact secrets from files or standard input before sharing them',
    load: () => import('./redact').then((m) => m.default),
  },
  replay: {
    summary: 'replay agent trajectories under every context strategy and compare tokens and cost',
    load: () => import('./replay').then((m) => m.default),
  },
};
