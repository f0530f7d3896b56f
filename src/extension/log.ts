// The one logger: a LogOutputChannel, exposed to the core through its Logger port.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';

export function createLogger(context: vscode.ExtensionContext): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Context Desk', { log: true });
  context.subscriptions.push(channel);
  const logger: Logger = {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
  return { channel, logger };
}
