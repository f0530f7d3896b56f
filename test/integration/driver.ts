// Drives the agent panel's chat from integration tests: a scripted model on loopback, settings set for
// the test and restored after, and waits on the chat's state with deadlines.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptStep, type ScriptedServer } from '../support/scripted-model-server';
import type { ContextDeskApi } from '../../src/extension/extension';
import type { ApprovalRequest } from '../../src/protocol/chat';
import { waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');

export class AgentDriver {
  private server: ScriptedServer | undefined;
  private readonly touched = new Set<string>();

  constructor(private readonly a: ContextDeskApi) {}

  /** A fresh chat against a new scripted server, with these settings (approvals on unless said otherwise). */
  async script(steps: ScriptStep[], settings: Record<string, unknown> = {}): Promise<ScriptedServer> {
    await this.server?.close();
    this.server = await startScriptedModelServer(steps);
    const all = {
      'agent.approveCommands': true,
      ...settings,
      'agent.baseUrl': this.server.baseURL,
      'agent.model': 'scripted',
    };
    for (const [key, value] of Object.entries(all)) await this.set(key, value);
    // A run left over from a failed test is stopped and allowed to finish before the next chat.
    if (this.a.chat().stop()) await waitFor(() => this.a.chat().snapshot.status !== 'running', 20_000, 'the old run');
    this.a.chat().newChat();
    return this.server;
  }

  async set(key: string, value: unknown): Promise<void> {
    this.touched.add(key);
    await config().update(key, value, vscode.ConfigurationTarget.Global);
  }

  /** Sends once the previous run has let go (its status can read "completed" a moment before). */
  async send(text: string): Promise<void> {
    let reason = '';
    await waitFor(
      () => {
        const r = this.a.chat().send(text);
        reason = r.reason ?? '';
        return r.accepted || !/still working/.test(reason);
      },
      10_000,
      'the chat accepts a message',
    );
    assert.equal(reason, '', reason);
  }

  /** The pending approval (one other than `after`, the one just answered, when given). */
  async approval(kind: ApprovalRequest['kind'], after?: ApprovalRequest): Promise<ApprovalRequest> {
    await waitFor(
      () => {
        const pending = this.a.chat().snapshot.approval;
        return pending !== undefined && pending.id !== after?.id;
      },
      20_000,
      `a ${kind} approval`,
    );
    const request = this.a.chat().snapshot.approval!;
    assert.equal(request.kind, kind);
    return request;
  }

  answer(request: ApprovalRequest, approved: boolean, always = false): void {
    assert.ok(this.a.chat().approvals.answer(request.id, approved, always));
  }

  async finished(timeoutMs = 30_000): Promise<string> {
    await waitFor(() => this.a.chat().snapshot.status !== 'running', timeoutMs, 'the run ends');
    return this.a.chat().snapshot.status;
  }

  /** The text of the tool results the model got in request `index` (0-based). */
  toolResults(index: number): string[] {
    return (this.server?.chatRequests()[index]?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content ?? '');
  }

  async dispose(): Promise<void> {
    await this.server?.close();
    for (const key of this.touched) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}
