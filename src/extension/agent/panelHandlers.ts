// Answers the Agent panel's requests. The chat controller loads on first use (features bundle).
import * as vscode from 'vscode';
import type { HostRequests } from '../../protocol/messages';
import type { Handlers } from '../../protocol/rpc';
import type { Lazy } from '../lazy';
import type { ChatController } from './chatController';

export interface PanelHandlerDeps {
  chat: Lazy<ChatController>;
  showLog: () => void;
  openStored: (reference: string) => Promise<boolean>;
  isAllowedCommand: (c: string) => boolean;
}

export function panelHandlers(d: PanelHandlerDeps): Handlers<HostRequests> {
  return {
    showLog: () => {
      d.showLog();
      return { shown: true };
    },
    runCommand: async ({ command }) => {
      if (!d.isAllowedCommand(command)) throw new Error(`The panel may not run '${command}'`);
      await vscode.commands.executeCommand(command);
      return { ran: true };
    },
    send: ({ text }) => d.chat().send(text),
    stop: () => ({ stopped: d.chat.peek()?.stop() ?? false }),
    newChat: () => ({ sessionId: d.chat().newChat() }),
    openSession: async ({ sessionId }) => ({ opened: await d.chat().resumeSession(sessionId) }),
    setStrategy: async ({ strategy }) => ({ strategy: await d.chat().setStrategy(strategy) }),
    setModel: async ({ model }) => ({ model: await d.chat().setModel(model) }),
    openStored: async ({ path }) => ({ opened: await d.openStored(path) }),
    answerApproval: ({ id, approved, always }) => ({ ok: d.chat().approvals.answer(id, approved, always === true) }),
    noticeAction: async ({ action }) => {
      if (action === 'showLog') d.showLog();
      else if (action === 'configure') await vscode.commands.executeCommand('contextDesk.configureAgent');
      else if (action === 'openTranscript') await d.chat().openTranscript();
      return { ok: true };
    },
  };
}
