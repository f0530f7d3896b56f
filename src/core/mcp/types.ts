// Shapes shared by the MCP config reader, the sync and the writer. Plain data: the extension glue and the
// CLI build these from files and settings, the manager turns them into folders on disk.

/** Where a server definition came from: a config file path, or `setting` for servers passed in directly. */
export type ConfigSource = string;

interface ServerConfigBase {
  /** The key under `servers` / `mcpServers`. */
  name: string;
  source: ConfigSource;
  /** `disabled: true` in the config: the server is listed with status `disabled` and never started. */
  disabled?: boolean;
}

export interface StdioServerConfig extends ServerConfigBase {
  type: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** A dotenv file whose variables are added under `env` (entries in `env` win). */
  envFile?: string;
  cwd?: string;
  /**
   * The envFile as the sync read it before deciding whether the server may start (never in a config
   * file): the prompt shows these variables, consent is given to them, and the server gets them, not
   * whatever the file holds a moment later.
   */
  envFileContent?: EnvFileContent;
}

/** An env file read: its resolved path and the variables it sets. */
export interface EnvFileContent {
  file: string;
  vars: Record<string, string>;
}

export interface HttpServerConfig extends ServerConfigBase {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** An `inputs` entry of `.vscode/mcp.json`: a value the user is asked for once (kept in SecretStorage by the glue). */
export interface McpInputDeclaration {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
  source: ConfigSource;
}

/** A config problem with its place: malformed JSON, a server without a command, ... */
export interface McpConfigError {
  file: ConfigSource;
  /** 1-based; 0 when the problem has no single place. */
  line: number;
  column: number;
  message: string;
}

export type McpServerStatus = 'connected' | 'needs-auth' | 'error' | 'disabled';

/** One tool as the server described it (the per-tool JSON file holds exactly this plus size notes). */
export interface McpToolDescription {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** A tool as the manager knows it after a sync. */
export interface McpToolEntry {
  name: string;
  title?: string;
  /** File name inside the server folder (`<safe name>.json`). */
  fileName: string;
  /** Absolute path of the tool's JSON file (empty when the manager does not write files). */
  file: string;
  /** First sentence of the description, capped: what INDEX.md shows. */
  summary: string;
  /** Length of the full description in characters. */
  descriptionChars: number;
  /** Set when the input schema cannot be compiled: calls are refused with this message. */
  inputSchemaError?: string;
  /** The full description as listed (kept in memory for mcp_describe and token counts). */
  tool: McpToolDescription;
}

/** Everything the UI, INDEX.md and the static prompt show about one server. */
export interface McpServerState {
  name: string;
  /** Safe folder name under `<out>/mcp/`. */
  folderName: string;
  transport: 'stdio' | 'http' | 'vscode';
  source: ConfigSource;
  /** What the config declares the server runs or talks to, hashed (identity.ts); absent for VS Code's own tools. */
  identity?: string;
  status: McpServerStatus;
  /** For `error`, `needs-auth` and `disabled`: what happened (secrets redacted). */
  message?: string;
  /** For `error` and `needs-auth`: what the user can do about it. */
  fix?: string;
  /** Milliseconds since the epoch of the last sync attempt. */
  lastSync?: number;
  serverInfo?: { name: string; version: string };
  instructions?: string;
  tools: McpToolEntry[];
}

/** A tool of VS Code's own registry (`vscode.lm.tools`), fed in by the glue as the server `vscode`. */
export interface VscodeToolInfo {
  name: string;
  description: string;
  inputSchema?: unknown;
}

/** What `tools/call` returned, reduced to what the agent needs. */
export interface McpCallResult {
  isError: boolean;
  /** Text of the content blocks (non-text blocks described in one line each), plus structured content as JSON. */
  text: string;
  /** The raw result, for callers that want images or resources. */
  raw: unknown;
}
