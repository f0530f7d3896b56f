// The VS Code side of the agent's edit_file and run_command tools (the core defines the tools and checks
// paths): commands run in a visible terminal (hostCommands.ts), edits are shown in a diff editor and
// applied as WorkspaceEdits (hostEdits.ts). Both ask for approval first unless
// contextDesk.agent.approveCommands is off.
import type { ToolOutput } from '../../core/agent/tool-registry';
import { commandApprovalTitle, type CommandPort, type EditFilePort } from '../../core/agent/tools';
import type { ApprovalBroker } from './approvals';
import { runInTerminal } from './hostCommands';
import { applyEdit } from './hostEdits';
import type { ProposedEdits } from './proposedEdits';

export interface HostPortOptions {
  approvals: ApprovalBroker;
  approve: () => boolean;
  /** The virtual documents the diff editor shows proposals from (registered at activation). */
  proposals?: ProposedEdits;
  /** After Ctrl-C, how long a command has before its terminal is closed (default hostCommands.KILL_GRACE_MS). */
  killGraceMs?: number;
}

/** The core's edit_file / run_command tools check paths and arguments; these ports do the VS Code part. */
export function hostPorts(o: HostPortOptions): { edit: EditFilePort; command: CommandPort } {
  return {
    command: {
      async run(request, ctx): Promise<ToolOutput> {
        const title = commandApprovalTitle(request);
        const detail = `${request.command}\n(in ${request.cwd})${request.scripts ? `\n(${request.scripts})` : ''}`;
        if (o.approve() && !(await o.approvals.ask('command', title, detail))) {
          return { ok: false, text: 'The user declined to run this command.' };
        }
        // runInTerminal runs it in request.cwd, whatever folder the reused terminal is in.
        return runInTerminal(
          {
            command: request.command,
            cwd: request.cwd,
            timeoutMs: request.timeoutMs,
            ...(o.killGraceMs !== undefined ? { killGraceMs: o.killGraceMs } : {}),
          },
          ctx,
        );
      },
    },
    edit: {
      edit: (request, _ctx, recheck) =>
        applyEdit(request, {
          approvals: o.approvals,
          approve: o.approve,
          recheck,
          ...(o.proposals ? { proposals: o.proposals } : {}),
        }),
    },
  };
}
