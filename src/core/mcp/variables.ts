// Resolves `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:id}` in a server config. Inputs
// come through a port: the extension prompts once and keeps them in SecretStorage, the CLI reads them
// from the environment. Every resolved env/header/input value is collected as a secret for redaction.
import * as path from 'node:path';
import type { EnvFileContent, McpInputDeclaration, McpServerConfig, StdioServerConfig } from './types';
import { ReadRefusedError, readTextFile } from '../read-text';

/** Returns the value of an input, or undefined when the user gave none (the server then fails with a clear error). */
export type InputResolver = (input: McpInputDeclaration) => Promise<string | undefined>;

export interface VariableContext {
  workspaceFolder?: string;
  home?: string;
  env: Record<string, string | undefined>;
  inputs: McpInputDeclaration[];
  resolveInput?: InputResolver;
}

export class VariableError extends Error {}

export interface ResolvedServer {
  config: McpServerConfig;
  /** Values that must never be written anywhere (env values, header values, inputs). */
  secrets: string[];
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** Resolves the variables of one string. Inputs are asked for once per id (memoised in `cache`). */
export async function resolveString(
  text: string,
  ctx: VariableContext,
  cache: Map<string, Promise<string | undefined>>,
  secrets: string[],
): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    parts.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[1] ?? '';
    if (name === 'workspaceFolder') {
      if (!ctx.workspaceFolder) throw new VariableError('${workspaceFolder} is used but no folder is open');
      parts.push(ctx.workspaceFolder);
    } else if (name === 'workspaceFolderBasename' && ctx.workspaceFolder) {
      parts.push(path.basename(ctx.workspaceFolder));
    } else if (name === 'userHome' && ctx.home) {
      parts.push(ctx.home);
    } else if (name === 'pathSeparator') {
      parts.push(path.sep);
    } else if (name.startsWith('env:')) {
      const value = ctx.env[name.slice(4)] ?? '';
      if (value) secrets.push(value);
      parts.push(value);
    } else if (name.startsWith('input:')) {
      const id = name.slice(6);
      const decl = ctx.inputs.find((i) => i.id === id) ?? { id, type: 'promptString', source: 'unknown' };
      let pending = cache.get(id);
      if (!pending) {
        pending = ctx.resolveInput ? ctx.resolveInput(decl) : Promise.resolve(decl.default);
        cache.set(id, pending);
      }
      const value = (await pending) ?? decl.default;
      if (value === undefined) throw new VariableError(`the input '${id}' has no value (it was not provided)`);
      if (value) secrets.push(value);
      parts.push(value);
    } else {
      throw new VariableError(`unknown variable \${${name}}`);
    }
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/** Parses a dotenv file: `KEY=value`, `export KEY=value`, `#` comments, single or double quotes. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2] ?? '';
    const q = value[0];
    if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) {
      value = value.slice(1, -1);
      if (q === '"') value = value.replace(/\\n/g, '\n');
    } else {
      // An inline comment: the first blank before a `#`, and the blanks before that one.
      const comment = /\s#/.exec(value);
      if (comment) value = value.slice(0, comment.index).trimEnd();
    }
    out[m[1]!] = value;
  }
  return out;
}

/** Resolves every variable in a server config and loads its envFile. Throws VariableError with a clear message. */
export async function resolveServerConfig(
  config: McpServerConfig,
  ctx: VariableContext,
  cache: Map<string, Promise<string | undefined>> = new Map(),
): Promise<ResolvedServer> {
  const secrets: string[] = [];
  const plain: string[] = [];
  const r = (s: string): Promise<string> => resolveString(s, ctx, cache, plain);
  const rSecret = (s: string): Promise<string> => resolveString(s, ctx, cache, secrets);
  if (config.type === 'http') {
    const out: McpServerConfig = { ...config, url: await rSecret(config.url) };
    if (config.headers) {
      out.headers = {};
      for (const [k, v] of Object.entries(config.headers)) {
        const value = await rSecret(v);
        out.headers[k] = value;
        if (value) secrets.push(value);
      }
    }
    return { config: out, secrets: unique(secrets.concat(plain)) };
  }
  const out: StdioServerConfig = { ...config, command: await r(config.command), args: [] };
  for (const a of config.args) out.args.push(await r(a));
  if (config.cwd !== undefined) out.cwd = await r(config.cwd);
  const env: Record<string, string> = {};
  if (config.envFile !== undefined)
    Object.assign(env, (config.envFileContent ?? (await readEnvFile(config.envFile, ctx))).vars);
  delete out.envFileContent;
  for (const [k, v] of Object.entries(config.env ?? {})) env[k] = await rSecret(v);
  for (const v of Object.values(env)) if (v) secrets.push(v);
  if (config.envFile !== undefined || config.env !== undefined) out.env = env;
  return { config: out, secrets: unique(secrets.concat(plain)) };
}

/** An env file holds a few variables, every one of them shown in the start prompt; 64 KB is far past any. */
export const MAX_ENV_FILE_BYTES = 64 * 1024;

/**
 * Reads a server's envFile (relative to the workspace folder). Its path may use every variable but
 * `${input:…}`: the file is read before the server may start, to show what it sets, and asking for an
 * input then would ask on behalf of a server not allowed yet. Throws VariableError with a clear message.
 */
export async function readEnvFile(envFile: string, ctx: VariableContext): Promise<EnvFileContent> {
  if (/\$\{input:/.test(envFile))
    throw new VariableError('envFile: its path cannot use ${input:…} (the file is read before the server starts)');
  const file = path.resolve(ctx.workspaceFolder ?? '.', await resolveString(envFile, ctx, new Map(), []));
  let text: string;
  try {
    text = await readTextFile(file, MAX_ENV_FILE_BYTES);
  } catch (e) {
    if (e instanceof ReadRefusedError) throw new VariableError(`envFile: ${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    throw new VariableError(`cannot read envFile ${file}${code === 'ENOENT' ? ': there is no such file' : ''}`);
  }
  return { file, vars: parseDotenv(text) };
}

/** The config with its envFile read (`envFileContent`), as the start prompt shows it and consent holds it. */
export async function withEnvFile(config: McpServerConfig, ctx: VariableContext): Promise<McpServerConfig> {
  if (config.type !== 'stdio' || config.envFile === undefined || config.envFileContent) return config;
  return { ...config, envFileContent: await readEnvFile(config.envFile, ctx) };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Replaces every secret of 4+ characters in the text by `***` (longest first, so overlapping ones vanish whole). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((x) => x.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join('***');
  }
  return out;
}
