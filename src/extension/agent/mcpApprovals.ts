// The approval of MCP tool calls: asked like a command unless approvals are off, the user allowed the
// tool always (for this workspace), or the server marks the tool read-only and the user chose to trust
// such hints (contextDesk.agent.autoApproveReadOnlyMcpTools, off by default: a server describes
// itself, and a hostile one can claim anything).
import type { McpApprovalPort } from '../../core/mcp/agent-tools';
import { approvalArguments, mcpApprovalTitle, mcpCallTitle, visibleName } from '../../core/agent/tools/mcp';
import { imitatedPaths } from '../../core/agent/tools/imitated-path';
import type { ApprovalBroker } from './approvals';
import type { McpAllowList } from './mcpAllowList';

export interface McpApprovalOptions {
  approvals: ApprovalBroker;
  allowList: McpAllowList;
  /** contextDesk.agent.approveCommands */
  approve: () => boolean;
  /** contextDesk.agent.autoApproveReadOnlyMcpTools */
  trustReadOnly: () => boolean;
  /** The workspace folder, to name the files look-alike paths in the arguments imitate. */
  workspaceRoot?: () => string | undefined;
}

export function mcpApprovalPort(o: McpApprovalOptions): McpApprovalPort {
  return async (r) => {
    if (!o.approve()) return true;
    if (r.readOnlyHint && o.trustReadOnly()) return true;
    if (o.allowList.has(r.server, r.serverIdentity, r.tool)) return true;
    const title = mcpCallTitle(r.server, r.tool);
    // Exactly what is sent: a redacted view could hide text that a redaction rule swallowed.
    const { text: args, secret } = await approvalArguments(r.arguments);
    const root = o.workspaceRoot?.();
    const imitated = root === undefined ? [] : await imitatedPaths(root, args);
    const answer = await o.approvals.request({
      kind: 'mcp',
      title: mcpApprovalTitle(r.server, r.tool, args, secret, imitated),
      detail: `${args}${r.readOnlyHint ? '\n(The server marks this tool read-only: its own claim.)' : ''}`,
      mcp: { server: visibleName(r.server), tool: visibleName(r.tool), arguments: args, readOnlyHint: r.readOnlyHint },
      alwaysLabel: `Always allow ${title} in this workspace`,
    });
    if (answer === 'always') await o.allowList.add(r.server, r.serverIdentity, r.tool);
    return answer !== 'deny';
  };
}
