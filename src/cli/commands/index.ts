// The registry of subcommands: name -> lazy loader. Add one line per command.
import type { Command } from '../command';

export const commands: Record<string, () => Promise<Command>> = {
  grep: () => import('./grep').then((m) => m.default),
  mcp: () => import('./mcp').then((m) => m.default),
  replay: () => import('./replay').then((m) => m.default),
};
