import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` whose name ends with `suffix`, sorted, as paths relative to the cwd. */
export function findFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(suffix)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
