// Whole-process timing for benchmarks: wall time from spawn to exit, output drained (never parsed),
// variants run in turn (A B C A B C ...) so a machine that speeds up or slows down affects all alike.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ProcessRun {
  command: string;
  args: string[];
  cwd?: string;
}

/** Milliseconds from spawn to exit; throws when the exit code is not one of `okCodes`. */
export async function timeProcess(run: ProcessRun, okCodes: readonly number[] = [0]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(run.command, run.args, { cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stdout.resume();
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  const ms = performance.now() - t0;
  if (code === null || !okCodes.includes(code))
    throw new Error(`${run.command} ${run.args.join(' ')} exited ${code}: ${err.slice(0, 500)}`);
  return ms;
}

/** Each variant `rounds` times, interleaved, after one unrecorded warm-up round; times per variant. */
export async function interleaved<K extends string>(
  rounds: number,
  variants: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(variants) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let r = -1; r < rounds; r++)
    for (const k of keys) {
      const ms = await variants[k]();
      if (r >= 0) out[k].push(ms);
    }
  return out;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** "median (min-max)" of a list of ratios. */
export function spread(xs: readonly number[], digits = 2): string {
  return `${median(xs).toFixed(digits)}x (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
}
