// The panel's chat snapshot as settings make it: a fresh chat's, the one after a settings change, and
// the chat models VS Code offers for the picker. Pure of the controller's state, so it reads alone.
import * as vscode from 'vscode';
import { countsExactly } from '../../core/tokens';
import type { ChatSnapshot } from '../../protocol/chat';
import type { Settings } from '../settings';
import { emptyChat } from './chatModel';
import { modelFields, modelName, providerKind } from './providers';
import { liveSettings } from './sessionFactory';

/** A new chat's id (its history file's name). */
export function newSessionId(): string {
  return `chat-${Date.now().toString(36)}`;
}

/** A fresh chat under settings `s`. */
export function freshChat(s: Settings): ChatSnapshot {
  const { model, setup } = modelFields(s);
  const snapshot = emptyChat(
    newSessionId(),
    liveSettings(s).strategy,
    s['agent.contextWindow'],
    !countsExactly(liveSettings(s).tokenizer, modelName(s)),
    setup,
  );
  const kind = providerKind(s['agent.provider']);
  return {
    ...snapshot,
    ...(model ? { model } : {}),
    models: s['agent.model'] && kind !== 'demo' ? [s['agent.model']] : [],
  };
}

/** The chat `current` after settings changed to `s`: its model label, picker, strategy and setup state follow. */
export function chatUnderSettings(current: ChatSnapshot, s: Settings): ChatSnapshot {
  const { model: label, setup } = modelFields(s);
  const { model: _old, ...rest } = current;
  const kind = providerKind(s['agent.provider']);
  const named = s['agent.model'];
  const models = kind === 'demo' ? [] : [...new Set([...(named ? [named] : []), ...rest.models])];
  return { ...rest, strategy: liveSettings(s).strategy, models, setup, ...(label ? { model: label } : {}) };
}

/** Whether the picker lists VS Code's chat models (vscode-lm only). */
export function listsLanguageModels(s: Settings): boolean {
  return providerKind(s['agent.provider']) === 'vscode-lm';
}

/** Every chat model VS Code has, the one named in settings first. */
export async function languageModelIds(current: string | undefined): Promise<string[]> {
  const ids = (await vscode.lm.selectChatModels()).map((m) => m.id);
  return [...new Set([...(current ? [current] : []), ...ids])];
}
