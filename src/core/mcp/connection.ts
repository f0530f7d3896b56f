// One live connection to one MCP server (stdio or streamable HTTP) with the SDK client: connect with a
// timeout, list tools page by page with a timeout, call tools, hear `notifications/tools/list_changed`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { TimeoutError, TooLargeError } from './errors';
import type { McpServerConfig, McpToolDescription } from './types';
import { identityCommand, type CommandResolver } from './command';
import { cappedFetch } from './capped-fetch';
import { promptName } from './inert';
import { jsonOrNote, MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth';

export interface ConnectionOptions {
  connectTimeoutMs: number;
  listTimeoutMs: number;
  resolveCommand?: CommandResolver;
  /** Called when the server sends `notifications/tools/list_changed`. */
  onToolsChanged?: () => void;
  /** Called once when the connection ends without `close()` having been called. */
  onUnexpectedClose?: () => void;
  clientInfo?: { name: string; version: string };
}

export interface ListedTools {
  tools: McpToolDescription[];
  /** Problems with single entries (a tool without a name, a repeated cursor), each skipped. */
  warnings: string[];
}

const MAX_PAGES = 1000;
/**
 * The most tool entries kept from one server. Real servers list tens (the largest about a hundred); each
 * tool becomes a file, so a server listing 100,000 held the sync for 80 s and wrote 100,000 files.
 */
export const MAX_TOOLS = 1000;
const STDERR_TAIL = 4096;
/**
 * The most one message from a server may hold: the SDK's own default for stdio (10 MB), set here on
 * purpose and applied to HTTP too: a tool list beyond it is a broken or hostile server, and holding more
 * costs the window's memory.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves like `p` unless `signal` aborts first (then rejects with its reason; a late result is closed). */
export async function raceAbort<T extends { close(): Promise<void> }>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    void p.then(
      (c) => c.close(),
      () => undefined,
    );
    throw signal.reason;
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      void p.then(
        (c) => c.close(),
        () => undefined,
      );
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export class McpConnection {
  private closed = false;
  /** Set once initialize succeeded: only a later close is "unexpected". */
  private opened = false;
  private stderrTail = '';
  /** Set when the transport dropped a message over MAX_MESSAGE_BYTES (it then closes). */
  private tooLarge: TooLargeError | undefined;
  /** Pages and tools received by the last `listTools` (for the deadline message). */
  readonly progress = { pages: 0, tools: 0 };

  private constructor(
    readonly client: Client,
    private readonly transport: Transport,
    private readonly options: ConnectionOptions,
  ) {}

  /** Tail of the server's stderr (stdio only): the best explanation of an early exit. */
  get stderr(): string {
    return this.stderrTail;
  }

  /**
   * Starts (stdio) or reaches (HTTP) the server and runs `initialize`. On failure everything is closed
   * and the error is rethrown with the stderr tail attached as `stderr`.
   */
  static async open(config: McpServerConfig, options: ConnectionOptions): Promise<McpConnection> {
    const client = new Client(options.clientInfo ?? { name: 'context-desk', version: '0.1.0' }, { capabilities: {} });
    let transport: Transport;
    if (config.type === 'stdio') {
      const resolved = (options.resolveCommand ?? identityCommand)(config.command, config.args);
      const env = config.env || resolved.env ? { ...resolved.env, ...config.env } : undefined;
      transport = new StdioClientTransport({
        command: resolved.command,
        args: resolved.args,
        env,
        cwd: config.cwd,
        stderr: 'pipe',
        maxBufferSize: MAX_MESSAGE_BYTES,
      });
    } else {
      let url: URL;
      try {
        url = new URL(config.url);
      } catch {
        throw new Error(`"${config.url}" is not a valid URL`);
      }
      transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: config.headers ?? {} },
        fetch: cappedFetch(MAX_MESSAGE_BYTES, (e) => conn.dropTooLarge(e)),
      });
    }
    const conn = new McpConnection(client, transport, options);
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => {
        conn.stderrTail = (conn.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      options.onToolsChanged?.();
    });
    client.onerror = (e) => {
      const m = /ReadBuffer exceeded maximum size of (\d+)/.exec(e.message);
      if (m) conn.tooLarge = new TooLargeError(Number(m[1]));
    };
    client.onclose = () => {
      if (!conn.closed && conn.opened) {
        conn.closed = true;
        options.onUnexpectedClose?.();
      }
    };
    try {
      await withTimeout(
        client.connect(transport, { timeout: options.connectTimeoutMs }),
        options.connectTimeoutMs + 100,
        'initialize',
      );
    } catch (e) {
      // Give stderr a moment to arrive: a crashing server prints why just before it exits.
      await new Promise((r) => setTimeout(r, 50));
      await conn.close();
      throw Object.assign(conn.tooLarge ?? (e instanceof Error ? e : new Error(String(e))), {
        stderr: conn.stderrTail,
      });
    }
    conn.opened = true;
    return conn;
  }

  /** An HTTP answer went over MAX_MESSAGE_BYTES: remember why and close, as the stdio transport does. */
  private dropTooLarge(e: TooLargeError): void {
    this.tooLarge ??= e;
    void this.transport.close().catch(() => undefined);
  }

  get serverInfo(): { name: string; version: string } | undefined {
    const v = this.client.getServerVersion();
    return v ? { name: String(v.name), version: String(v.version) } : undefined;
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /**
   * `tools/list`, following `nextCursor` until the end. Entries without a string name are skipped with a
   * warning. `signal` stops the listing (its reason is thrown), e.g. at the overall deadline.
   */
  async listTools(signal?: AbortSignal): Promise<ListedTools> {
    const tools: McpToolDescription[] = [];
    const warnings: string[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let entries = 0;
    this.progress.pages = 0;
    this.progress.tools = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      signal?.throwIfAborted();
      const params = cursor === undefined ? {} : { cursor };
      let result;
      try {
        result = await withTimeout(
          this.client.request({ method: 'tools/list', params }, ResultSchema, {
            timeout: this.options.listTimeoutMs,
            ...(signal ? { signal } : {}),
          }),
          this.options.listTimeoutMs + 100,
          'tools/list',
        );
      } catch (e) {
        throw this.tooLarge ?? e;
      }
      this.progress.pages++;
      const list = (result as { tools?: unknown }).tools;
      if (!Array.isArray(list)) throw new Error('tools/list answered without a "tools" array');
      for (const raw of list) {
        if (++entries > MAX_TOOLS) {
          warnings.unshift(`the server lists more than ${MAX_TOOLS} tools; only the first ${MAX_TOOLS} are kept`);
          return { tools, warnings };
        }
        const tool = toToolDescription(raw, warnings);
        if (tool) {
          tools.push(tool);
          this.progress.tools++;
        } else warnings.push(`skipped a tool entry without a name: ${jsonOrNote(raw).slice(0, 100)}`);
      }
      const next = (result as { nextCursor?: unknown }).nextCursor;
      if (typeof next !== 'string' || next === '') return { tools, warnings };
      if (seen.has(next)) {
        warnings.push(`the server repeated the cursor '${next.slice(0, 50)}'; listing stopped there`);
        return { tools, warnings };
      }
      seen.add(next);
      cursor = next;
    }
    warnings.push(`more than ${MAX_PAGES} pages of tools; listing stopped there`);
    return { tools, warnings };
  }

  /** `tools/call`. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    try {
      return await this.client.request({ method: 'tools/call', params: { name, arguments: args } }, ResultSchema, {
        timeout: timeoutMs,
        signal,
      });
    } catch (e) {
      throw this.tooLarge ?? e;
    }
  }

  /** Closes the client and transport (stdio: ends the child, escalating to SIGKILL). Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) {
      await this.transport.close().catch(() => undefined);
      return;
    }
    this.closed = true;
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

/**
 * A tool entry as kept. A schema or annotations nested deeper than MAX_JSON_DEPTH are left out with a
 * warning (nothing could write or compile them): the tool then has no input schema and is flagged.
 */
function toToolDescription(raw: unknown, warnings: string[]): McpToolDescription | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || r.name === '') return undefined;
  const tool: McpToolDescription = { name: r.name };
  if (typeof r.title === 'string') tool.title = r.title;
  if (typeof r.description === 'string') tool.description = r.description;
  for (const key of ['inputSchema', 'outputSchema', 'annotations'] as const) {
    if (r[key] === undefined) continue;
    if (nestedDeeperThan(r[key])) {
      warnings.push(`tool ${promptName(r.name)}: its ${key} nests more than ${MAX_JSON_DEPTH} levels deep; left out`);
      continue;
    }
    tool[key] = r[key];
  }
  return tool;
}
