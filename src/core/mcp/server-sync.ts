// One server's sync: connect when it is not connected, list its tools under one overall deadline, and
// publish the outcome as the server's state (connected with its tools, or the failure with a fix).
import * as path from 'node:path';
import { mcpSdkModules } from './sdk-modules';
import { buildToolEntries, warningsLine } from './tools';
import type { Live, McpSyncManagerOptions } from './manager-options';
import { redact } from './variables';
import type { McpServerState } from './types';
import type { Clock, Logger } from '../ports';
import { redactSecrets } from '../store/sanitize/secrets';

/** Default overall deadline for connecting to one server and listing all its tools. */
export const DEFAULT_SYNC_DEADLINE_MS = 60_000;

const redactText = async (text: string | undefined, secrets: string[]): Promise<string | undefined> =>
  text === undefined ? undefined : (await redactSecrets(redact(text, secrets))).text;

/** What the manager lends one server's sync; getters where the manager may change the value meanwhile. */
export interface ServerSyncDeps {
  options: () => McpSyncManagerOptions;
  mcpDir: string | undefined;
  clock: Clock;
  logger: Logger;
  /** False once the manager stopped or replaced this server while it connected: the connection is closed. */
  current: () => boolean;
  onToolsChanged: () => void;
  onLost: () => void;
  publish: (state: McpServerState) => Promise<void>;
}

/** Connects if needed, lists tools, publishes the state. Never throws for a server's own failures. */
export async function syncServerTools(name: string, l: Live, base: McpServerState, d: ServerSyncDeps): Promise<void> {
  const { McpConnection, raceAbort, classifyFailure, DeadlineError } = mcpSdkModules();
  const folder = d.mcpDir ? path.join(d.mcpDir, base.folderName) : '';
  let phase: 'connect' | 'list' = 'connect';
  // One overall deadline for connect + every page: a slow paging server cannot hold the sync for hours.
  const deadlineMs = d.options().syncDeadlineMs ?? DEFAULT_SYNC_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DeadlineError(deadlineMs, { ...(l.connection?.progress ?? { pages: 0, tools: 0 }) })),
    deadlineMs,
  );
  try {
    if (!l.connection) {
      const opening = McpConnection.open(l.config, {
        connectTimeoutMs: d.options().connectTimeoutMs ?? 15_000,
        listTimeoutMs: d.options().listTimeoutMs ?? 15_000,
        resolveCommand: d.options().resolveCommand,
        onToolsChanged: d.onToolsChanged,
        onUnexpectedClose: d.onLost,
      });
      l.connection = await raceAbort(opening, deadline.signal);
      if (!d.current()) {
        await l.connection.close();
        return;
      }
    }
    phase = 'list';
    const conn = l.connection;
    const listed = await conn.listTools(deadline.signal);
    const warnings = listed.warnings;
    const tools = buildToolEntries(listed.tools, folder, warnings);
    l.attempts = 0;
    const state: McpServerState = { ...base, status: 'connected', lastSync: d.clock.now(), tools };
    delete state.message;
    delete state.fix;
    if (warnings.length > 0) state.message = await redactText(warningsLine(warnings), l.secrets);
    if (conn.serverInfo) state.serverInfo = conn.serverInfo;
    if (conn.instructions) state.instructions = await redactText(conn.instructions, l.secrets);
    await d.publish(state);
  } catch (caught) {
    // Past the overall deadline, whatever the aborted request threw, the deadline is the reason.
    const e: unknown = deadline.signal.aborted ? deadline.signal.reason : caught;
    const stderr = (caught as { stderr?: unknown }).stderr;
    const options = d.options();
    const failure = classifyFailure(
      e,
      l.config,
      phase,
      typeof stderr === 'string' ? stderr : (l.connection?.stderr ?? ''),
      phase === 'connect' ? (options.connectTimeoutMs ?? 15_000) : (options.listTimeoutMs ?? 15_000),
    );
    // Stderr and messages can carry tokens and passwords: redacted before they are logged, shown or written.
    const message = (await redactText(failure.message, l.secrets))!;
    d.logger.warn(`MCP server ${name}: ${failure.status}: ${message}`);
    const c = l.connection;
    l.connection = undefined;
    await c?.close();
    const state: McpServerState = {
      ...base,
      status: failure.status,
      message,
      fix: (await redactText(failure.fix, l.secrets))!,
      lastSync: d.clock.now(),
      tools: [],
    };
    delete state.serverInfo;
    delete state.instructions;
    await d.publish(state);
  } finally {
    clearTimeout(timer);
  }
}
