// What the chat controller needs from the extension: VS Code's stores, the settings, the store, the
// host's tools and approvals, and where to post the panel's patches.
import type * as vscode from 'vscode';
import type { ContextStore } from '../../core/store/context-store';
import type { McpApprovalPort } from '../../core/mcp';
import type { Logger } from '../../core/ports';
import type { ChatPatch, ChatSnapshot } from '../../protocol/chat';
import type { ApprovalBroker } from './approvals';
import type { Settings } from '../settings';
import type { ShowStoreFile } from '../store/storeFileView';
import type { Extras, SessionFactoryDeps } from './sessionFactory';

export interface ChatControllerDeps {
  extensionPath: string;
  secrets: vscode.SecretStorage;
  /** Workspace state: which history files this workspace wrote (see WrittenSessions). */
  state: vscode.Memento;
  settings: () => Settings;
  storeRoot: () => { root: string; workspaceFolder?: string };
  /** The window's store, opened through the extension's StoreAccess (it tells the user about refusals). */
  openStore: () => Promise<ContextStore>;
  /** Opens a store file (a transcript) read-only, as checked. */
  showStoreFile: ShowStoreFile;
  hostPorts: SessionFactoryDeps['hostPorts'];
  /** Who approves mcp_call (asked in the panel like a command); absent: calls run unasked. */
  mcpApproval?: (approvals: ApprovalBroker) => McpApprovalPort;
  /** MCP tools and skills for the agent: the host for mcp_describe / mcp_call, and the static prompt lines. */
  extras?: () => Promise<Extras>;
  post: (patches: ChatPatch[]) => void;
  postSnapshot: (snapshot: ChatSnapshot) => void;
  /** Puts a message that was never sent back in the message box (the draft), for the next window. */
  keepUnsent?: (text: string) => void;
  /** The message waiting for a stopped run, kept with the draft until it has gone (undefined then). */
  keepWaiting?: (text: string | undefined) => void;
  /** The run started or ended (the view title's Stop follows it). */
  onRunning?: (running: boolean) => void;
  logger: Logger;
}
