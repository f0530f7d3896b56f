// Answers the Agent panel's requests. The chat controller loads on first use (features bundle).
import * as vscode from 'vscode';
import type { HostRequests } from '../../protocol/messages';
import { readPanelMemory, type PanelMemory } from '../../protocol/panelMemory';
import { ANTHROPIC_DEFAULT_URL, currentEndpoint, keyBoundTo, originOf } from './apiKeys';
import type { Handlers } from '../../protocol/rpc';
import { features, type Lazy } from '../lazy';
import type { Settings } from '../settings';
import type { ChatController } from './chatController';
import { openTurnLimitSetting } from './turnLimitSetting';

export interface PanelHandlerDeps {
  chat: Lazy<ChatController>;
  settings: () => Settings;
  secrets: vscode.SecretStorage;
  showLog: () => void;
  openStored: (reference: string) => Promise<boolean>;
  isAllowedCommand: (c: string) => boolean;
  /** Resolves once VS Code's storage has the draft. */
  saveDraft: (text: string) => Promise<void>;
  /** Keeps the panel's unsaved setup fields and error line in memory while the view is hidden. */
  keepMemory: (memory: PanelMemory) => void;
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
    saveDraft: async ({ text }) => {
      if (typeof text !== 'string') throw new Error('A draft is text');
      await d.saveDraft(text);
      return { saved: true };
    },
    keepMemory: (memory) => {
      d.keepMemory(readPanelMemory(memory));
      return { kept: true };
    },
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
      else if (action === 'maxTurnsSetting') await openTurnLimitSetting(d.settings());
      else if (action === 'useDemo')
        return {
          ok: (await features().saveSetup({ provider: 'demo', baseUrl: '', model: '' }, d.secrets, d.settings)).ok,
        };
      return { ok: true };
    },
    getSetup: () => features().getSetup(d.settings(), d.secrets),
    listModels: async ({ provider, baseUrl, apiKey }) =>
      features().listModels({ provider, baseUrl, apiKey: apiKey || (await storedKey(d, provider, baseUrl)) }),
    testConnection: async ({ provider, baseUrl, model, apiKey }) =>
      features().testConnection({
        provider,
        baseUrl,
        model,
        apiKey: apiKey || (await storedKey(d, provider, baseUrl)),
      }),
    saveSetup: (input) => features().saveSetup(input, d.secrets, d.settings),
    refreshSessions: async () => ({ count: await d.chat().refreshPastSessions() }),
  };
}

/**
 * A key typed in the form wins; else the stored one, but only when it is bound to the origin being
 * tested: a URL typed in the form must not receive the stored key (the key is never sent back to the panel).
 */
async function storedKey(d: PanelHandlerDeps, provider: string, baseUrl: string): Promise<string | undefined> {
  const url = baseUrl || (provider === 'anthropic' ? ANTHROPIC_DEFAULT_URL : '');
  if (!url) return undefined;
  const configured =
    provider === 'anthropic' || provider === 'openai-compatible' ? currentEndpoint(provider) : undefined;
  return keyBoundTo(d.secrets, provider, originOf(url), configured);
}
