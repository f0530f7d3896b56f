// Memory of the extension host in a real VS Code (code-server), with Context Desk against without it,
// in one run: RSS and JS heap before activation, after activation, after a 200-call scripted session
// with o200k, after closing it, and at rest (30 s later). The driver (memory/driver.ts) runs inside the extension host; this
// side checks that it measured the extension host found in code-server's process tree.
// Goals: under 100 MB added during a session, under 20 MB at rest; no tiktoken encoding held once closed.
// ROUNDS=n runs per side (2); TOKENIZER=chars4 leaves tiktoken out; MEMORY_DETAIL=1 prints where the
// memory is at each phase (V8's heap spaces, the process's mappings).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { openWorkbench } from '../../scripts/lib/workbench';
import { onCleanup, runMain } from '../../scripts/lib/cleanup';
import type { DriverResult } from './memory/driver';

const CALLS = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const FILES = 20;

/** Pids of every process below `root`, from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${e}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

function extensionHostPid(serverPid: number): number | undefined {
  return descendants(serverPid).find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('extensionHost');
    } catch {
      return false;
    }
  });
}

/** A scripted model: CALLS - 1 tool calls over the workspace's files, then an answer. */
function script(): unknown[] {
  const steps: unknown[] = [];
  for (let i = 0; i < CALLS - 1; i++) {
    const f = `src/file-${i % FILES}.ts`;
    const call =
      i % 10 === 9
        ? { name: 'grep', arguments: { pattern: 'export', path: 'src' } }
        : { name: 'read_file', arguments: { path: f } };
    steps.push({ reply: { text: `Step ${i + 1}: reading.`, toolCalls: [call] } });
  }
  steps.push({ reply: { text: 'Done: every file was read.' } });
  return steps;
}

/** A workspace of FILES real source files (~5-15 KB each) for the session to read. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cd-bench-mem-ws-'));
  const sources = readdirSync('src/core/agent').filter((f) => f.endsWith('.ts'));
  for (let i = 0; i < FILES; i++)
    cpSync(join('src/core/agent', sources[i % sources.length]!), join(dir, 'src', `file-${i}.ts`));
  return dir;
}

async function startModel(scriptFile: string): Promise<{ baseURL: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/scripted-model-server.ts', '--script', scriptFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const stop = (): void => void child.kill();
  onCleanup(stop);
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) res(m[1]!);
    });
    child.once('exit', (c) => rej(new Error(`the scripted model server exited (${c})`)));
  });
  return { baseURL: `${url}/v1`, stop };
}

async function once(mode: 'baseline' | 'extension', driver: string, modelUrl: string): Promise<DriverResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'cd-bench-mem-out-'));
  const out = join(outDir, 'result.json');
  const ws = workspace();
  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((r) => (exit = r));
  const { server, browser } = await openWorkbench(
    {
      folder: ws,
      extensionPath: mode === 'extension' ? resolve('.') : resolve('test/bench/memory/baseline-extension'),
      testsPath: driver,
      env: {
        CONTEXT_DESK_MEMORY_TOKENIZER: process.env.TOKENIZER ?? 'o200k',
        CONTEXT_DESK_MEMORY_MODE: mode,
        CONTEXT_DESK_MEMORY_OUT: out,
        CONTEXT_DESK_MEMORY_MODEL_URL: modelUrl,
        ...(process.env.MEMORY_DETAIL ? { CONTEXT_DESK_MEMORY_TRACE: '1' } : {}),
      },
    },
    async (p) => {
      await p.exposeFunction('codeAutomationLog', () => undefined);
      await p.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    },
  );
  try {
    const timer = setTimeout(() => exit(-1), 900_000);
    // The extension host exits with the driver: find it in the process tree while it runs.
    let host: number | undefined;
    const probe = setInterval(() => (host ??= extensionHostPid(server.process.pid!)), 500);
    const code = await exited;
    clearInterval(probe);
    clearTimeout(timer);
    if (!existsSync(out)) throw new Error(`the driver wrote no result (exit ${code})`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as DriverResult;
    // MEMORY_DETAIL=1: where the memory is at each phase (V8 spaces, mappings), to find what stays.
    if (process.env.MEMORY_DETAIL)
      for (const s of r.samples) {
        console.log(`  ${mode}, ${s.phase}: ${s.detail}`);
        for (const t of s.trace ?? []) console.log(`    ${t}`);
      }
    for (const s of r.samples) if (s.note) console.log(`  ${mode}, ${s.phase}: ${s.note}`);
    if (r.error) throw new Error(`${mode}: ${r.error}`);
    if (host !== r.pid) throw new Error(`the driver ran in pid ${r.pid}, the extension host is ${host}`);
    return r;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(ws, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  // What users run: the production bundles (minified, no source maps).
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
  if (built.status !== 0) return 1;
  const tmp = mkdtempSync(join(tmpdir(), 'cd-bench-mem-'));
  onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  await build({
    entryPoints: { driver: 'test/bench/memory/driver.ts' },
    outdir: tmp,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const scriptFile = join(tmp, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script()));
  const results: Record<string, DriverResult[]> = { baseline: [], extension: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const mode of ['baseline', 'extension'] as const) {
      // A fresh model server per run: the script is consumed step by step.
      const model = await startModel(scriptFile);
      try {
        const res = await once(mode, join(tmp, 'driver.js'), model.baseURL);
        if (mode === 'extension' && res.calls !== CALLS)
          throw new Error(`the session made ${res.calls} calls (${res.status}), not ${CALLS}`);
        results[mode]!.push(res);
        console.log(
          `round ${r + 1} ${mode}: ${res.samples.map((s) => `${s.phase} ${s.rssMb.toFixed(0)} MB`).join(', ')}`,
        );
      } finally {
        model.stop();
      }
    }
  report(results);
  return 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** "median (min to max)" of a list. */
function fmt(xs: number[]): string {
  return `${median(xs).toFixed(1).padStart(6)} (${Math.min(...xs).toFixed(1)} to ${Math.max(...xs).toFixed(1)})`;
}

/**
 * Two processes of the same VS Code differ by ±20 MB before anything happens (seen here), so
 * "added" is taken per process: growth since that process's own "before activation" sample with
 * Context Desk, minus the same growth without it, round by round.
 */
function report(results: Record<string, DriverResult[]>): void {
  const phases = results.extension![0]!.samples.map((s) => s.phase);
  const values = (mode: string, i: number, k: 'rssMb' | 'heapMb'): number[] =>
    results[mode]!.map((r) => r.samples[i]![k]);
  const growth = (mode: string, i: number, k: 'rssMb' | 'heapMb'): number[] =>
    results[mode]!.map((r) => r.samples[i]![k] - r.samples[0]![k]);
  const added = (i: number, k: 'rssMb' | 'heapMb'): number[] =>
    growth('extension', i, k).map((x, r) => x - growth('baseline', i, k)[r]!);
  console.log(`\nExtension host memory in MB, median (min to max) of ${ROUNDS} runs each`);
  console.log(
    'phase              | RSS, VS Code alone      | RSS with Context Desk  | RSS added              | JS heap added',
  );
  phases.forEach((phase, i) =>
    console.log(
      `${phase.padEnd(18)} | ${fmt(values('baseline', i, 'rssMb')).padEnd(23)} | ${fmt(values('extension', i, 'rssMb')).padEnd(22)} | ${fmt(added(i, 'rssMb')).padEnd(22)} | ${fmt(added(i, 'heapMb'))}`,
    ),
  );
  const session = median(added(phases.indexOf('after the session'), 'rssMb'));
  const closed = median(added(phases.indexOf('after closing it'), 'rssMb'));
  const rest = median(added(phases.indexOf('at rest'), 'rssMb'));
  console.log(
    `added during the session: ${session.toFixed(1)} MB (goal < 100 MB: ${session < 100 ? 'met' : 'NOT met'})`,
  );
  console.log(`added just after closing it: ${closed.toFixed(1)} MB (V8's young generation not given back yet)`);
  console.log(`added at rest, 30 s later: ${rest.toFixed(1)} MB (goal < 20 MB: ${rest < 20 ? 'met' : 'NOT met'})`);
  const held = results.extension!.flatMap((r) => r.samples.filter((s) => s.note && !/held: none$/.test(s.note)));
  if (held.length > 0) throw new Error(`an encoding stayed loaded after closing: ${held[0]!.note}`);
}

runMain(main);
