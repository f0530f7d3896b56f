// Runs inside the real extension host (as its extensionTestsPath) and measures that process at each
// phase of the memory benchmark: RSS from /proc/self/status, the JS heap after a full GC. With
// CONTEXT_DESK_MEMORY_MODE=extension it activates Context Desk and drives a scripted session;
// with `baseline` (VS Code without the extension) it waits through the same phases doing nothing.
// "At rest" is read REST_MS after closing, with no collection forced: V8 gives back its young
// generation (grown to 32 MB during a session) only at a collection after allocation has slowed down,
// which takes seconds; read 2 s after closing, that transient was most of what seemed to stay.
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString, getHeapStatistics, getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../../src/extension/extension';

export interface Sample {
  phase: string;
  rssMb: number;
  heapMb: number;
  /** Where the memory is: each V8 heap space (resident / used) and the process's mappings, in MB. */
  detail: string;
  /** What the extension reports about its tokenizer, when it is active. */
  note?: string;
  /** With CONTEXT_DESK_MEMORY_TRACE: the young generation and the collections, every 5 s at rest. */
  trace?: string[];
}

export interface DriverResult {
  pid: number;
  mode: string;
  samples: Sample[];
  calls?: number;
  status?: string;
  error?: string;
}

const SETTLE_MS = 2000;
const REST_MS = 30_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Two full collections, then RSS and heap, synchronously: nothing else on this thread runs between. */
function measure(phase: string): Sample {
  gc();
  gc();
  return read(phase);
}

/** RSS and heap as they are (the heap counts garbage not collected yet). */
function read(phase: string): Sample {
  const status = readFileSync('/proc/self/status', 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return { phase, rssMb: rssKb / 1024, heapMb: getHeapStatistics().used_heap_size / 1024 / 1024, detail: detail() };
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** V8's spaces as resident/used, then resident memory per mapping (anonymous, malloc heap, node's binary). */
function detail(): string {
  const spaces = getHeapSpaceStatistics()
    .filter((x) => x.physical_space_size > 0)
    .map((x) => `${x.space_name.replace(/_space$/, '')} ${mb(x.physical_space_size)}/${mb(x.space_used_size)}`);
  const kb: Record<string, number> = {};
  let mapping = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const m = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) mapping = `${(m[2] || '[anon]').split('/').pop()} ${m[1]}`;
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[mapping] = (kb[mapping] ?? 0) + Number(rss[1]);
  }
  const maps = Object.entries(kb)
    .filter(([, v]) => v >= 1024)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${mb(v * 1024)}`);
  const { external, arrayBuffers } = process.memoryUsage(); // WASM memories count as external
  return `V8 ${spaces.join(', ')}; external ${mb(external)} (array buffers ${mb(arrayBuffers)}); mapped ${maps.join(', ')}`;
}

/** Lets timers, pending I/O and finalizers run first. */
async function sample(phase: string): Promise<Sample> {
  await sleep(SETTLE_MS);
  gc();
  await sleep(100);
  return measure(phase);
}

const encodings = (api: ContextDeskApi): string =>
  `tiktoken encodings held: ${api.loadedEncodings().join(', ') || 'none'}`;

const GC_KINDS: Record<number, string> = {
  [perf.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perf.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};

/** Waits REST_MS; with CONTEXT_DESK_MEMORY_TRACE, notes the young generation and each collection meanwhile. */
async function rest(): Promise<string[] | undefined> {
  if (!process.env.CONTEXT_DESK_MEMORY_TRACE) return void (await sleep(REST_MS));
  const trace: string[] = [];
  const start = performance.now();
  const gcs: string[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const d = (e as { detail?: unknown }).detail as { kind: number; flags: number } | undefined;
      gcs.push(
        `${GC_KINDS[d?.kind ?? 0] ?? d?.kind}${d?.flags ? `/${d.flags}` : ''}@${((e.startTime - start) / 1000).toFixed(1)}s`,
      );
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  for (let t = 0; t < REST_MS; t += 5000) {
    await sleep(5000);
    const young = getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
    trace.push(
      `${t / 1000 + 5}s young ${mb(young?.physical_space_size ?? 0)}/${mb(young?.space_used_size ?? 0)} gc [${gcs.splice(0).join(' ')}]`,
    );
  }
  obs.disconnect();
  return trace;
}

/**
 * With CONTEXT_DESK_MEMORY_PROFILE=dir, a CPU profile of the rest period (what still runs when nothing
 * should) in <dir>/<mode>.cpuprofile: the returned function stops it and writes the file.
 */
function profile(): () => Promise<void> {
  const dir = process.env.CONTEXT_DESK_MEMORY_PROFILE;
  if (!dir) return async () => undefined;
  const file = `${dir}/${process.env.CONTEXT_DESK_MEMORY_MODE ?? 'baseline'}.cpuprofile`;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r))));
  const started = post('Profiler.enable').then(() => post('Profiler.start'));
  return async () => {
    await started;
    const { profile: p } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(p));
    session.disconnect();
  };
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function session(api: ContextDeskApi, result: DriverResult): Promise<void> {
  const config = vscode.workspace.getConfiguration('contextDesk');
  const settings: Record<string, unknown> = {
    'agent.baseUrl': process.env.CONTEXT_DESK_MEMORY_MODEL_URL,
    'agent.model': 'scripted',
    'agent.approveCommands': false,
    'agent.maxTurns': 1000,
    tokenizer: process.env.CONTEXT_DESK_MEMORY_TOKENIZER ?? 'o200k',
  };
  for (const [k, v] of Object.entries(settings)) await config.update(k, v, vscode.ConfigurationTarget.Global);
  const chat = api.chat();
  chat.newChat();
  const sent = chat.send('Read the project files one by one and summarise them.');
  if (!sent.accepted) throw new Error(`the message was refused: ${sent.reason}`);
  await waitFor(() => chat.snapshot.status !== 'running' && chat.snapshot.status !== 'idle', 600_000, 'the session');
  result.calls = chat.snapshot.meter.calls;
  result.status = chat.snapshot.status;
}

export async function run(): Promise<void> {
  const mode = process.env.CONTEXT_DESK_MEMORY_MODE ?? 'baseline';
  const result: DriverResult = { pid: process.pid, mode, samples: [] };
  try {
    const ext = vscode.extensions.getExtension<ContextDeskApi>('context-desk.context-desk');
    if (mode === 'extension' && !ext) throw new Error('Context Desk is not loaded');
    // No settling here: onStartupFinished would activate the extension meanwhile.
    if (ext?.isActive) throw new Error('Context Desk was active before the driver ran');
    result.samples.push(measure('before activation'));
    if (ext) {
      const api = await ext.activate();
      result.samples.push(await sample('after activation'));
      await session(api, result);
      result.samples.push(await sample('after the session'));
      api.chat().newChat();
      await api.chat().whenSettled();
      result.samples.push({ ...(await sample('after closing it')), note: encodings(api) });
      const stopProfile = profile();
      const trace = await rest();
      await stopProfile();
      result.samples.push({ ...read('at rest'), note: encodings(api), trace });
    } else {
      for (const phase of ['after activation', 'after the session', 'after closing it'])
        result.samples.push(await sample(phase));
      const stopProfile = profile();
      const trace = await rest();
      await stopProfile();
      result.samples.push({ ...read('at rest'), trace });
    }
  } catch (e) {
    result.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  // For finding what stays: CONTEXT_DESK_MEMORY_SNAPSHOT=dir writes <dir>/<mode>.heapsnapshot at rest
  // (open it in DevTools, or compare the two with scripts/heap-compare.ts).
  const snapshots = process.env.CONTEXT_DESK_MEMORY_SNAPSHOT;
  if (snapshots && !result.error) writeHeapSnapshot(`${snapshots}/${mode}.heapsnapshot`);
  writeFileSync(process.env.CONTEXT_DESK_MEMORY_OUT!, JSON.stringify(result));
  if (result.error) throw new Error(result.error);
}
