// Restricted Mode (an untrusted workspace): reading, grep, Open Masked Observation and replay work; no
// MCP server starts (McpController passes allowStart: isTrusted); the agent runs no command and makes no
// edit. Checked at each call, so granting trust mid-session takes effect at once.
import type { CommandPort, EditFilePort } from '../core/agent/tools';
import type { Logger } from '../core/ports';

export const RESTRICTED_MODE_MESSAGE =
  'This workspace is not trusted (Restricted Mode): Context Desk does not run commands, edit files or start MCP servers here. Trust the folder (Manage Workspace Trust) to allow them.';

/** The line the agent's system prompt carries in Restricted Mode, so it does not keep trying. */
export const RESTRICTED_MODE_PROMPT =
  'The workspace is in Restricted Mode: you can read and search files, but running commands and editing files are refused. Tell the user to trust the folder if the task needs either.';

/** The host's edit and command ports, refusing while the workspace is untrusted. */
export function guardHostPorts(
  ports: { edit: EditFilePort; command: CommandPort },
  isTrusted: () => boolean,
  logger: Logger,
): { edit: EditFilePort; command: CommandPort } {
  const refuse = (what: string) => {
    logger.warn(`Restricted Mode: the agent's ${what} was refused.`);
    return { ok: false, text: RESTRICTED_MODE_MESSAGE };
  };
  return {
    edit: {
      edit: (request, ctx, recheck) =>
        isTrusted() ? ports.edit.edit(request, ctx, recheck) : Promise.resolve(refuse('edit')),
    },
    command: {
      run: (request, ctx) => (isTrusted() ? ports.command.run(request, ctx) : Promise.resolve(refuse('command'))),
    },
  };
}
