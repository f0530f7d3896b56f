// `context-desk mcp`: the MCP folder sync for people who use other agents, and the static-prompt tokens
// of full tool schemas versus the names-only index. Same config formats and core as the extension.
import * as path from 'node:path';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { UsageError, type CliIo, type Command } from '../command';
import {
  DEFAULT_SYNC_DEADLINE_MS,
  McpSyncManager,
  formatConfigError,
  measureMcpTokens,
  renderIndexMd,
  type CommandResolver,
  type McpServerState,
} from '../../core/mcp';
import { createTokenizer, isTokenizerName } from '../../core/tokens';
import { terminalText } from '../../core/mcp/inert';
import { ContextStore } from '../../core/store/context-store';
import { definedInFolder, whatStartingDoes } from '../../core/mcp/start-description';
import { visibleName, visibleText } from '../../core/agent/tools/mcp';
import type { McpServerConfig } from '../../core/mcp/types';

const usage = `Usage: context-desk mcp sync [--config FILE...] [--out DIR] [options]
       context-desk mcp tokens [--config FILE...] [--json] [options]

sync    connects to every configured MCP server, lists its tools and writes
        DIR/mcp/<server>/<tool>.json, DIR/mcp/<server>/SERVER.md and DIR/mcp/INDEX.md.
tokens  compares the static-prompt tokens of all full tool schemas with the names-only index
        that Context Desk puts in the prompt instead (plus its mcp_describe and mcp_call tools).

Without --config the workspace's .vscode/mcp.json, .cursor/mcp.json and .mcp.json are read
(JSON with comments). Servers those files define run programs a cloned repository chose: they
are listed with what starting them does and not started unless --allow-workspace-servers is
given (a file named with --config is your own choice, and starts). \${input:ID} values come from the environment variable
CONTEXT_DESK_INPUT_<ID> (upper case, other characters as _).

Options:
  --config FILE       a config file (repeatable); replaces the discovery
  --workspace DIR     the workspace folder (default: the current directory)
  --allow-workspace-servers
                      start the servers the workspace's own config files define
  --out DIR           output folder for sync (default: <workspace>/.context-desk)
  --json              tokens: print {"servers", "tools", "fullSchemaTokens", "indexTokens", "ratio"}
  --tokenizer NAME    tokens: o200k (default), cl100k, or chars4 (an estimate)
  --timeout MS        timeout of the connect and of each page of the listing (default 15000)
  --deadline S        overall deadline per server for connect + the full listing (default 60)
  -h, --help          show this help

DIR must be a new or empty folder, or a Context Desk store (it gets a marker file and a
.gitignore of *); links inside it are never followed. Server text is printed without
terminal control sequences.

Exit codes: 0 every server synced, 1 a server failed or a config has errors (the rest is still
written), 2 usage error, 130 interrupted.`;

/** `node` runs with this process's node (the CLI is never Electron). */
const nodeCommand: CommandResolver = (command, args) => ({
  command: command === 'node' ? process.execPath : command,
  args: [...args],
});

export function inputEnvName(id: string): string {
  return `CONTEXT_DESK_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

interface McpArgs {
  action: 'sync' | 'tokens';
  configs: string[];
  workspace: string;
  out: string;
  json: boolean;
  tokenizer: 'o200k' | 'cl100k' | 'chars4';
  timeoutMs: number;
  deadlineMs: number;
  allowWorkspaceServers: boolean;
}

export function parseMcpArgs(argv: string[], cwd = process.cwd()): McpArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string', multiple: true },
        workspace: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        tokenizer: { type: 'string' },
        timeout: { type: 'string' },
        deadline: { type: 'string' },
        'allow-workspace-servers': { type: 'boolean' },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { values, positionals } = parsed;
  const action = positionals[0];
  if (action !== 'sync' && action !== 'tokens')
    throw new UsageError(action === undefined ? 'missing action: sync or tokens' : `unknown action '${action}'`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
  const tokenizer = values.tokenizer ?? 'o200k';
  if (!isTokenizerName(tokenizer)) throw new UsageError(`unknown tokenizer '${tokenizer}'`);
  const timeoutMs = values.timeout === undefined ? 15_000 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new UsageError(`--timeout must be a positive number of milliseconds`);
  const deadlineMs = values.deadline === undefined ? DEFAULT_SYNC_DEADLINE_MS : Number(values.deadline) * 1000;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0)
    throw new UsageError(`--deadline must be a positive number of seconds`);
  if (action === 'sync' && values.json) throw new UsageError('--json applies to tokens only');
  if (action === 'tokens' && values.out !== undefined) throw new UsageError('--out applies to sync only');
  const workspace = path.resolve(cwd, values.workspace ?? '.');
  return {
    action,
    configs: (values.config ?? []).map((f) => path.resolve(cwd, f)),
    workspace,
    out: path.resolve(cwd, values.out ?? path.join(workspace, '.context-desk')),
    json: values.json === true,
    tokenizer,
    timeoutMs,
    deadlineMs,
    allowWorkspaceServers: values['allow-workspace-servers'] === true,
  };
}

/** One server's line; every server-controlled string is stripped of terminal control sequences. */
function statusLine(s: McpServerState, refused: boolean): string {
  if (refused) s = { ...s, fix: 'run again with --allow-workspace-servers, if you trust this definition' };
  const head = `${terminalText(s.name).padEnd(20)} ${s.status.padEnd(10)} ${String(s.tools.length).padStart(4)} tools`;
  const first = terminalText((s.message ?? '').split('\n')[0] ?? '');
  if (s.status === 'connected') return s.message ? `${head}  (${first})` : head;
  return `${head}  ${first}${s.fix ? `\n${' '.repeat(22)}Fix: ${terminalText(s.fix)}` : ''}`;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseMcpArgs(argv);
  // Found by discovery inside the workspace: a cloned repository's programs, not started unasked.
  const refused = new Map<string, McpServerConfig>();
  const mayStart = (config: McpServerConfig): boolean => {
    if (args.allowWorkspaceServers || args.configs.length > 0 || !definedInFolder(config, args.workspace)) return true;
    refused.set(config.name, config);
    return false;
  };
  const manager = new McpSyncManager({
    outDir: args.action === 'sync' ? args.out : undefined,
    allowStart: true,
    mayStart,
    workspaceFolder: args.workspace,
    configFiles: args.configs,
    home: homedir(),
    resolveInput: async (input) => process.env[inputEnvName(input.id)],
    resolveCommand: nodeCommand,
    connectTimeoutMs: args.timeoutMs,
    listTimeoutMs: args.timeoutMs,
    syncDeadlineMs: args.deadlineMs,
    // One-shot: a server that exits after the sync is not "reconnecting" in files the CLI leaves behind.
    keepAlive: false,
    // --out is the user's own choice (like user settings): it may lie outside the workspace, never contain it.
    ...(args.action === 'sync'
      ? {
          openStore: () =>
            ContextStore.open({ root: args.out, workspaceRoot: args.workspace, allowOutsideWorkspace: true }),
        }
      : {}),
  });
  const stop = (): void => void manager.dispose();
  io.signal.addEventListener('abort', stop, { once: true });
  try {
    const servers = await manager.syncAll();
    if (io.signal.aborted) return 130;
    for (const e of manager.configErrors) io.stderr.write(`context-desk mcp: ${terminalText(formatConfigError(e))}\n`);
    if (refused.size > 0)
      io.stderr.write(
        `context-desk mcp: not started, defined by the workspace's own config files (start them only if you trust whoever wrote them: --allow-workspace-servers):\n${[
          ...refused.values(),
        ]
          .map(
            (c) =>
              `  "${visibleName(c.name)}" (${visibleText(path.relative(args.workspace, c.source))}) ${whatStartingDoes(c)}\n`,
          )
          .join('')}`,
      );
    const failed =
      servers.some((s) => s.status === 'error' || s.status === 'needs-auth') ||
      manager.configErrors.length > 0 ||
      refused.size > 0;
    if (servers.length === 0)
      io.stderr.write(
        `context-desk mcp: no MCP servers configured (looked in ${args.configs.length > 0 ? args.configs.join(', ') : `${args.workspace}/.vscode/mcp.json, .cursor/mcp.json, .mcp.json`})\n`,
      );
    if (args.action === 'sync') {
      for (const s of servers) io.stdout.write(statusLine(s, refused.has(s.name)) + '\n');
      if (servers.length > 0 && manager.storeError) {
        io.stderr.write(`context-desk mcp: nothing was written: ${manager.storeError}\n`);
        return 1;
      }
      if (servers.length > 0) io.stdout.write(`Wrote ${path.join(manager.mcpDir!, 'INDEX.md')}\n`);
      return failed ? 1 : 0;
    }
    const tokenizer = createTokenizer(args.tokenizer);
    try {
      const report = measureMcpTokens(servers, tokenizer);
      if (args.json) {
        const { servers: n, tools, fullSchemaTokens, indexTokens, ratio } = report;
        io.stdout.write(JSON.stringify({ servers: n, tools, fullSchemaTokens, indexTokens, ratio }) + '\n');
      } else {
        const label = tokenizer.exact ? `${args.tokenizer} tokens` : 'estimated tokens (chars/4)';
        io.stdout.write(
          `${'server'.padEnd(20)} ${'status'.padEnd(10)} ${'tools'.padStart(5)} ${'full schemas'.padStart(13)}\n`,
        );
        for (const s of servers)
          io.stdout.write(
            `${terminalText(s.name).padEnd(20)} ${s.status.padEnd(10)} ${String(s.tools.length).padStart(5)} ${String(measureMcpTokens([s], tokenizer).fullSchemaTokens).padStart(13)}\n`,
          );
        io.stdout.write(`\nStatic prompt, ${label}:\n`);
        io.stdout.write(`  full tool schemas      ${report.fullSchemaTokens}\n`);
        io.stdout.write(`  names-only index       ${report.indexTokens} (incl. mcp_describe and mcp_call)\n`);
        io.stdout.write(`  ratio                  ${report.ratio.toFixed(3)}\n`);
        io.stdout.write(
          `  INDEX.md (read on demand, one summary line per tool): ${tokenizer.count(renderIndexMd(servers))}\n`,
        );
      }
    } finally {
      tokenizer.dispose();
    }
    return failed ? 1 : 0;
  } finally {
    io.signal.removeEventListener('abort', stop);
    await manager.dispose();
  }
}

const command: Command = {
  summary: 'sync MCP tool descriptions into per-server folders; count their prompt tokens',
  usage,
  run,
};
export default command;
