// Turns whatever a failed connect or list threw into a status, a message and a fix a user can act on.
// A 401 is `needs-auth`, not `error`: the agent should tell the user instead of forgetting the tools.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig, McpServerStatus } from './types';
import { tailRedacted } from '../store/sanitize/secrets';

export interface Failure {
  status: Extract<McpServerStatus, 'error' | 'needs-auth'>;
  message: string;
  fix: string;
}

/** Thrown by our own timeout guard. */
export class TimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms`);
  }
}

/** The overall deadline for connect + full listing of one server passed. */
export class DeadlineError extends Error {
  constructor(
    readonly ms: number,
    /** How far the listing got: pages and tools received before the deadline. */
    readonly progress: { pages: number; tools: number } = { pages: 0, tools: 0 },
  ) {
    super(`connect and list did not finish within the overall deadline of ${ms} ms`);
  }
}

/** One message from the server was larger than the transport accepts. */
export class TooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`a message from the server exceeded ${limitBytes} bytes`);
  }
}

const mb = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function errnoCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(config: McpServerConfig): string {
  return config.type === 'stdio' ? `the command '${config.command}'` : `the URL ${safeUrl(config.url)}`;
}

/** The URL without credentials, query or fragment (they may carry tokens). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * Classifies a failure. `phase` says what was happening; `stderr` is the tail of a stdio server's stderr
 * (often the only explanation of why it exited).
 */
export function classifyFailure(
  e: unknown,
  config: McpServerConfig,
  phase: 'connect' | 'list',
  stderr = '',
  timeoutMs?: number,
): Failure {
  const where = `in ${config.source}`;
  // Redacted before it is cut: cut first, the end of a token would no longer be found by any rule.
  const tail = stderr.trim() ? `\nLast stderr output:\n${tailRedacted(stderr.trim(), 1500)}` : '';
  const http = e instanceof StreamableHTTPError ? e.code : undefined;
  if (e instanceof UnauthorizedError || http === 401) {
    return {
      status: 'needs-auth',
      message: `The server at ${describe(config)} answered 401 Unauthorized: it needs authentication.`,
      fix: `Add credentials to the server's "headers" ${where} (for example "Authorization": "Bearer \${input:token}"), or sign in to it with VS Code's own MCP support, then refresh.`,
    };
  }
  if (http === 403) {
    return {
      status: 'error',
      message: `The server refused access (403 Forbidden).`,
      fix: `Check that the credentials ${where} allow this client.`,
    };
  }
  if (http === 404 || http === 405) {
    return {
      status: 'error',
      message: `The server at ${describe(config)} answered ${http}: no streamable HTTP MCP endpoint there.`,
      fix: `Check the "url" ${where} (streamable HTTP servers usually serve /mcp).`,
    };
  }
  if (e instanceof DeadlineError) {
    const { pages, tools } = e.progress;
    const got = phase === 'connect' ? 'it had not finished connecting' : `it had sent ${tools} tools on ${pages} pages`;
    return {
      status: 'error',
      message: `The server did not finish connecting and listing its tools within the overall deadline of ${Math.round(e.ms / 1000)} s (${got}).${tail}`,
      fix: `Check ${describe(config)}; if it really needs longer, raise contextDesk.mcp.listTimeoutSeconds (CLI: --deadline).`,
    };
  }
  if (e instanceof TooLargeError) {
    return {
      status: 'error',
      message: `Tool list too large (over ${mb(e.limitBytes)} in one message, the most Context Desk reads from a server); it was not read.`,
      fix: `Ask the server's authors to shorten its descriptions or page its tool list, or disable the server ${where}.`,
    };
  }
  if (e instanceof TimeoutError || (e instanceof McpError && e.code === ErrorCode.RequestTimeout)) {
    const limit = timeoutMs ?? (e instanceof TimeoutError ? e.ms : undefined);
    const ms = limit === undefined ? '' : ` within ${limit} ms`;
    const step = phase === 'connect' ? 'answer initialize' : 'list its tools';
    return {
      status: 'error',
      message: `The server did not ${step}${ms}.${tail}`,
      fix: `Check that ${describe(config)} starts an MCP server (speaking JSON-RPC on ${config.type === 'stdio' ? 'stdout' : 'that URL'}), or raise the timeout.`,
    };
  }
  const code = errnoCode(e);
  if (code === 'ENOENT' && config.type === 'stdio') {
    return {
      status: 'error',
      message: `The command '${config.command}' was not found.`,
      fix: `Install it or put its full path in "command" ${where}.`,
    };
  }
  if (code === 'EACCES' && config.type === 'stdio') {
    return {
      status: 'error',
      message: `The command '${config.command}' is not executable.`,
      fix: `Check its permissions or the "command" ${where}.`,
    };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      status: 'error',
      message: `Nothing answers at ${describe(config)} (${code}).`,
      fix: `Start the server, or correct the "url" ${where}.`,
    };
  }
  if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
    return {
      status: 'error',
      message: `The server closed the connection ${phase === 'connect' ? 'before answering initialize (it exited at start)' : 'while listing its tools'}.${tail}`,
      fix: `Run ${describe(config)} in a terminal to see why it stops; check its "args", "env" and "cwd" ${where}.`,
    };
  }
  const text = e instanceof Error ? e.message : String(e);
  return {
    status: 'error',
    message: `${phase === 'connect' ? 'Connecting' : 'Listing tools'} failed: ${text}${tail}`,
    fix: `Check the server's definition ${where}.`,
  };
}
