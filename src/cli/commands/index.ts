// The registry of subcommands: name -> lazy loader. Add one line per command.
import type { Command } from '../command';

export const commands: Record<string, () => Promise<Command>> = {
  replay: () => import('./replay').then((m) => m.default),
};
