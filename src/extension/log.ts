// The one logger: a LogOutputChannel, exposed to the core through its Logger port, redacting every
// message once the rule engine (in the features bundle) is loaded.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { redactingLogger } from '../core/store/sanitize/redacting-logger';
import { featuresIfLoaded } from './lazy';

export function createLogger(context: vscode.ExtensionContext): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Context Desk', { log: true });
  context.subscriptions.push(channel);
  const plain: Logger = {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
  const logger = redactingLogger(plain, (text) => featuresIfLoaded()?.redactSecretsSync(text).text ?? text);
  return { channel, logger };
}
