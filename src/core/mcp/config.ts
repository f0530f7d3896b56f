// Reads MCP server definitions from the formats agents use: `.vscode/mcp.json` (`servers`, `inputs`),
// `.cursor/mcp.json` and `.mcp.json` (`mcpServers`), and servers passed in directly (a setting).
import * as path from 'node:path';
import { JsoncError, parseJsonc } from './jsonc';
import { ReadRefusedError, readTextFile } from '../read-text';
import type { McpConfigError, McpInputDeclaration, McpServerConfig } from './types';

/** The config files looked for in a workspace folder, in precedence order (first definition of a name wins). */
export const WORKSPACE_CONFIG_FILES = ['.vscode/mcp.json', '.cursor/mcp.json', '.mcp.json'] as const;

export interface ParsedMcpConfig {
  servers: McpServerConfig[];
  inputs: McpInputDeclaration[];
  errors: McpConfigError[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringMap(v: unknown, what: string, err: (m: string) => void): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) {
    err(`${what} must be an object of strings`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val === 'string') out[k] = val;
    else if (typeof val === 'number' || typeof val === 'boolean') out[k] = String(val);
    else err(`${what}.${k} must be a string`);
  }
  return out;
}

/**
 * Turns one server entry into a config. `type` may be missing (Cursor and Claude infer it): `command`
 * means stdio, `url` means HTTP. Returns undefined and reports through `err` when the entry is unusable.
 */
export function parseServerEntry(
  name: string,
  entry: unknown,
  source: string,
  err: (m: string) => void,
): McpServerConfig | undefined {
  const where = `server '${name}'`;
  if (!isObject(entry)) {
    err(`${where} must be an object`);
    return undefined;
  }
  const disabled = entry.disabled === true || entry.enabled === false ? true : undefined;
  const rawType = typeof entry.type === 'string' ? entry.type : undefined;
  const type =
    rawType === undefined
      ? typeof entry.command === 'string'
        ? 'stdio'
        : typeof entry.url === 'string'
          ? 'http'
          : ''
      : rawType;
  if (type === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') {
      err(`${where}: a stdio server needs a "command" string`);
      return undefined;
    }
    const args = entry.args === undefined ? [] : entry.args;
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number')) {
      err(`${where}: "args" must be an array of strings`);
      return undefined;
    }
    const fieldErr = (m: string): void => err(`${where}: ${m}`);
    const config: McpServerConfig = { name, source, type: 'stdio', command: entry.command, args: args.map(String) };
    const env = stringMap(entry.env, '"env"', fieldErr);
    if (env) config.env = env;
    if (typeof entry.envFile === 'string') config.envFile = entry.envFile;
    if (typeof entry.cwd === 'string') config.cwd = entry.cwd;
    if (disabled) config.disabled = true;
    return config;
  }
  if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp' || type === 'sse') {
    if (typeof entry.url !== 'string' || entry.url.trim() === '') {
      err(`${where}: an HTTP server needs a "url" string`);
      return undefined;
    }
    const config: McpServerConfig = { name, source, type: 'http', url: entry.url };
    const headers = stringMap(entry.headers, '"headers"', (m) => err(`${where}: ${m}`));
    if (headers) config.headers = headers;
    if (disabled) config.disabled = true;
    return config;
  }
  err(
    type === ''
      ? `${where} has neither "command" (stdio) nor "url" (http)`
      : `${where}: unknown type '${type}' (expected "stdio" or "http")`,
  );
  return undefined;
}

/** Line of the first occurrence of `"key"` in the text (1-based), to point errors at the right entry. */
function lineOfKey(text: string, key: string): number {
  const at = text.indexOf(JSON.stringify(key));
  return at === -1 ? 0 : text.slice(0, at).split('\n').length;
}

/** Parses the text of one config file. Never throws: problems come back in `errors`. */
export function parseMcpConfigText(text: string, file: string): ParsedMcpConfig {
  const result: ParsedMcpConfig = { servers: [], inputs: [], errors: [] };
  let doc: unknown;
  try {
    doc = parseJsonc(text, file);
  } catch (e) {
    if (e instanceof JsoncError) {
      result.errors.push({ file, line: e.line, column: e.column, message: `malformed JSON: ${e.detail}` });
      return result;
    }
    throw e;
  }
  if (!isObject(doc)) {
    result.errors.push({ file, line: 1, column: 1, message: 'the top level must be an object' });
    return result;
  }
  const block = doc.servers ?? doc.mcpServers;
  if (block !== undefined && !isObject(block)) {
    const key = doc.servers !== undefined ? 'servers' : 'mcpServers';
    result.errors.push({ file, line: lineOfKey(text, key), column: 1, message: `"${key}" must be an object` });
  }
  for (const [name, entry] of Object.entries(isObject(block) ? block : {})) {
    const err = (message: string): void => {
      result.errors.push({ file, line: lineOfKey(text, name), column: 1, message });
    };
    const server = parseServerEntry(name, entry, file, err);
    if (server) result.servers.push(server);
  }
  if (Array.isArray(doc.inputs)) {
    for (const input of doc.inputs) {
      if (!isObject(input) || typeof input.id !== 'string') {
        result.errors.push({ file, line: lineOfKey(text, 'inputs'), column: 1, message: 'every input needs an "id"' });
        continue;
      }
      const decl: McpInputDeclaration = {
        id: input.id,
        type: typeof input.type === 'string' ? input.type : 'promptString',
        source: file,
      };
      if (typeof input.description === 'string') decl.description = input.description;
      if (input.password === true) decl.password = true;
      if (typeof input.default === 'string') decl.default = input.default;
      result.inputs.push(decl);
    }
  }
  return result;
}

/** Servers from a setting value (an object of name -> entry, the `mcpServers` shape). */
export function parseSettingServers(value: unknown, source = 'setting'): ParsedMcpConfig {
  const result: ParsedMcpConfig = { servers: [], inputs: [], errors: [] };
  if (value === undefined || value === null) return result;
  if (!isObject(value)) {
    result.errors.push({ file: source, line: 0, column: 0, message: 'the setting must be an object of servers' });
    return result;
  }
  for (const [name, entry] of Object.entries(value)) {
    const server = parseServerEntry(name, entry, source, (message) =>
      result.errors.push({ file: source, line: 0, column: 0, message }),
    );
    if (server) result.servers.push(server);
  }
  return result;
}

/**
 * Reads the given files (or the workspace's known config files when `files` is empty), then adds the
 * setting's servers. A missing explicit file is an error; a missing discovered file is simply absent.
 * The first definition of a server name wins; later duplicates are reported.
 */
/** An MCP config holds a few servers (a few KB); more is not a config. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export async function loadMcpConfig(opts: {
  workspaceFolder?: string;
  files?: string[];
  settingServers?: unknown;
}): Promise<ParsedMcpConfig & { files: string[] }> {
  const explicit = (opts.files ?? []).length > 0;
  const candidates = explicit
    ? opts.files!.map((f) => path.resolve(opts.workspaceFolder ?? '.', f))
    : opts.workspaceFolder
      ? WORKSPACE_CONFIG_FILES.map((f) => path.join(opts.workspaceFolder!, f))
      : [];
  const parts: ParsedMcpConfig[] = [];
  const files: string[] = [];
  for (const file of candidates) {
    let text: string;
    try {
      text = await readTextFile(file, MAX_CONFIG_BYTES);
    } catch (e) {
      if (e instanceof ReadRefusedError) {
        parts.push({ servers: [], inputs: [], errors: [{ file, line: 0, column: 0, message: e.message }] });
        continue;
      }
      if (explicit) {
        const code = (e as NodeJS.ErrnoException).code;
        parts.push({
          servers: [],
          inputs: [],
          errors: [{ file, line: 0, column: 0, message: `cannot read the file (${code ?? String(e)})` }],
        });
      }
      continue;
    }
    files.push(file);
    parts.push(parseMcpConfigText(text, file));
  }
  parts.push(parseSettingServers(opts.settingServers));
  const merged: ParsedMcpConfig & { files: string[] } = { servers: [], inputs: [], errors: [], files };
  const seen = new Map<string, string>();
  for (const part of parts) {
    merged.errors.push(...part.errors);
    merged.inputs.push(...part.inputs);
    for (const s of part.servers) {
      const first = seen.get(s.name);
      if (first !== undefined) {
        merged.errors.push({
          file: s.source,
          line: 0,
          column: 0,
          message: `server '${s.name}' is already defined in ${first}; this one is ignored`,
        });
        continue;
      }
      seen.set(s.name, s.source);
      merged.servers.push(s);
    }
  }
  return merged;
}

/** One line per error: `file:line:column: message`. */
export function formatConfigError(e: McpConfigError): string {
  return e.line > 0 ? `${e.file}:${e.line}:${e.column}: ${e.message}` : `${e.file}: ${e.message}`;
}
