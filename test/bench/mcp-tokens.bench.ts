// Static-prompt tokens with @modelcontextprotocol/server-everything and server-filesystem configured:
// the baseline is every tool's full schema as a provider receives it (measured in this run, from the
// live servers); Context Desk sends the names-only index plus mcp_describe and mcp_call instead.
// Goal: index <= 0.2x the full schemas. Also prints what reading the on-demand INDEX.md would cost,
// a 20-request session with 3 tool descriptions read, and the sync time.
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { McpSyncManager, measureMcpTokens, renderIndexMd } from '../../src/core/mcp';
import { createTokenizer } from '../../src/core/tokens';

const GOAL = 0.2;
const modules = resolve(__dirname, '../../node_modules/@modelcontextprotocol');

async function main(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'cd-bench-mcp-'));
  const manager = new McpSyncManager({
    outDir: join(root, 'out'),
    allowStart: true,
    resolveCommand: (command, args) => ({ command: command === 'node' ? process.execPath : command, args: [...args] }),
    settingServers: {
      everything: { command: 'node', args: [join(modules, 'server-everything/dist/index.js'), 'stdio'] },
      filesystem: { command: 'node', args: [join(modules, 'server-filesystem/dist/index.js'), root] },
    },
  });
  try {
    const t0 = performance.now();
    const servers = await manager.syncAll();
    const syncMs = performance.now() - t0;
    for (const s of servers)
      if (s.status !== 'connected') throw new Error(`${s.name}: ${s.status}: ${s.message ?? ''}`);
    let failed = false;
    console.log(`sync (connect + list + write, 2 servers in parallel): ${syncMs.toFixed(0)} ms`);
    console.log(
      'tokenizer  servers  tools  full schemas  index  ratio   INDEX.md  20 requests: full / index + 3 reads',
    );
    for (const name of ['o200k', 'cl100k'] as const) {
      const tokenizer = createTokenizer(name);
      try {
        const r = measureMcpTokens(servers, tokenizer);
        const indexMd = tokenizer.count(renderIndexMd(servers));
        // A session of 20 model requests that reads 3 tool descriptions (each read stays in the context).
        const reads = servers[0]!.tools.slice(0, 3).reduce((n, t) => n + tokenizer.count(JSON.stringify(t.tool)), 0);
        const fullSession = 20 * r.fullSchemaTokens;
        const indexSession = 20 * r.indexTokens + 18 * reads;
        console.log(
          `${name.padEnd(10)} ${String(r.servers).padStart(7)} ${String(r.tools).padStart(6)} ${String(r.fullSchemaTokens).padStart(13)} ${String(r.indexTokens).padStart(6)} ${r.ratio.toFixed(3).padStart(6)} ${String(indexMd).padStart(10)}  ${fullSession} / ${indexSession} (${(indexSession / fullSession).toFixed(3)}x)`,
        );
        if (r.ratio > GOAL) failed = true;
      } finally {
        tokenizer.dispose();
      }
    }
    console.log(`goal: index <= ${GOAL}x full schemas: ${failed ? 'MISSED' : 'met'}`);
    return failed ? 1 : 0;
  } finally {
    await manager.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
